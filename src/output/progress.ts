// A progress count on stderr ("Deleting monitors 12/200") for bulk commands.
// Only on a terminal, and ora is imported only then.
import type { Output } from './output.js';

export interface Progress {
  tick(): void;
  stop(): void;
}

const NONE: Progress = { tick() {}, stop() {} };

export function progressText(label: string, done: number, total: number): string {
  return `${label} ${done}/${total}`;
}

export async function startProgress(out: Output, label: string, total: number): Promise<Progress> {
  if (!out.stderrColor || total < 2) return NONE;
  const { default: ora } = await import('ora');
  let done = 0;
  const spinner = ora({
    text: progressText(label, 0, total),
    stream: out.io.stderr as NodeJS.WritableStream,
    discardStdin: false,
    // Output already decided this stream may be decorated (a terminal, no CI, no NO_COLOR).
    isEnabled: true,
  }).start();
  return {
    tick() {
      done++;
      spinner.text = progressText(label, done, total);
      spinner.render();
    },
    stop() {
      spinner.stop();
    },
  };
}
