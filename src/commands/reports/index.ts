import type { Command } from 'commander';
import { examples, type Runtime } from '../../cli/action.js';
import { registerList } from '../../cli/listing.js';
import { register as get } from './get.js';

export function register(program: Command, runtime: Runtime): void {
  const reports = program.command('reports').description('List and read reports');
  examples(reports, 'cpk reports list', 'cpk reports get rpt_123', 'cpk reports get rpt_123 --query uptime_percent');
  registerList(reports, 'reports', runtime);
  get(reports, runtime);
}
