import type { Command } from 'commander';
import { examples, type Runtime } from '../../cli/action.js';
import { register as list } from './list.js';
import { register as use } from './use.js';
import { register as remove } from './remove.js';

export function register(program: Command, runtime: Runtime): void {
  const profile = program
    .command('profile')
    .description('List, switch and remove profiles (one per service and account)');
  examples(profile, 'cpk profile list', 'cpk profile use staging');
  for (const verb of [list, use, remove]) verb(profile, runtime);
}
