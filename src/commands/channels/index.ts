import type { Command } from 'commander';
import { examples, type Runtime } from '../../cli/action.js';
import { registerList } from '../../cli/listing.js';
import { register as update } from './update.js';

export function register(program: Command, runtime: Runtime): void {
  const channels = program.command('channels').description('List channels and change their settings');
  examples(channels, 'cpk channels list', 'cpk channels update ch_ops --set enabled=false');
  registerList(channels, 'channels', runtime);
  update(channels, runtime);
}
