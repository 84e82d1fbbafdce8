import type { Command } from 'commander';
import { examples, type Runtime } from '../../cli/action.js';
import { register as create } from './create.js';
import { register as get } from './get.js';
import { register as update } from './update.js';
import { register as del } from './delete.js';
import { registerList } from '../../cli/listing.js';
import { register as wait } from './wait.js';
import { register as watch } from './watch.js';

export function register(program: Command, runtime: Runtime): void {
  const monitors = program
    .command('monitors')
    .description('List, create, get, change, delete, wait for and watch monitors');
  examples(
    monitors,
    'cpk monitors create --name api --target https://api.example.com/health -q',
    'cpk monitors list',
    'cpk monitors get mon_123 --json',
    'cpk monitors delete mon_123 --yes',
  );
  registerList(monitors, 'monitors', runtime);
  // The verbs in the order help lists them.
  for (const verb of [create, get, update, del, wait, watch]) verb(monitors, runtime);
}
