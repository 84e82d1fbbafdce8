// `cpk completion SHELL`: a script generated from the live command tree.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { powershellScript } from './powershell.js';
import type { Shell } from './shells.js';
import { completionTable } from './table.js';
import { describeCommand } from './tree.js';
import { zshScript } from './zsh.js';

const RENDER = { bash: bashScript, zsh: zshScript, fish: fishScript, powershell: powershellScript } as const;

export function completionScript(shell: Shell, program: Command): string {
  return RENDER[shell](completionTable(describeCommand(program)));
}
