import type { Command } from 'commander';
import type { Runtime } from '../action.js';
import { register as list } from './list.js';
import { register as use } from './use.js';
import { register as remove } from './remove.js';

export function register(program: Command, runtime: Runtime): void {
  const profile = program.command('profile').description('List, switch and remove profiles (one per service and account)');
  list(profile, runtime);
  use(profile, runtime);
  remove(profile, runtime);
}
