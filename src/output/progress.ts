// Redrawn lines on stderr: the spinner of a slow call (Output.spin) and the
// progress count of bulk commands. ora is imported only when one is drawn.
//
// ora counts the lines to erase as the text's width divided by the terminal's
// columns: with 0 columns (a serial console, `script` under CI, `ssh -tt`) its
// redraw loops without yielding, so not even Ctrl-C is handled. Such a terminal
// gets no redraws, and a spinner stops when a resize leaves the width unknown.
import { knownColumns, type Writer } from '../core/io.js';
import type { Output } from './output.js';

/** What of a terminal stream the spinner reads: its width, and its resize event. */
type TerminalStream = Writer & {
  columns?: unknown;
  on?: (event: 'resize', listener: () => void) => unknown;
  off?: (event: 'resize', listener: () => void) => unknown;
};

/**
 * Starts a spinner on `stream` (the caller allowed decoration); undefined when the terminal does not say
 * its width, or when `wanted` says no once ora is loaded (the work ended meanwhile).
 */
export async function startSpinner(stream: Writer, text: string, wanted: () => boolean = () => true) {
  const terminal = stream as TerminalStream;
  if (knownColumns(terminal.columns) === undefined) return undefined;
  const { default: ora } = await import('ora');
  if (!wanted() || knownColumns(terminal.columns) === undefined) return undefined;
  const spinner = ora({
    text,
    stream: stream as NodeJS.WritableStream,
    discardStdin: false,
    // The caller's Output already decided this from its IO; ora would read process.env instead.
    isEnabled: true,
  }).start();
  let running = true;
  // A resize is reported (SIGWINCH) in the same callback that changes
  // `columns`, so this runs before ora's next redraw could read a width of 0.
  const onResize = () => {
    if (knownColumns(terminal.columns) === undefined) stop();
  };
  terminal.on?.('resize', onResize);
  function stop(): void {
    if (!running) return;
    running = false;
    terminal.off?.('resize', onResize);
    spinner.stop();
  }
  return {
    update(next: string) {
      if (!running) return;
      spinner.text = next;
      spinner.render();
    },
    stop,
  };
}

/** A count on stderr for a bulk command ("Deleting monitors 12/200"), on a terminal and for two items or more. */
export async function startProgress(out: Output, label: string, total: number) {
  const none = { tick() {}, update() {}, stop() {} };
  if (!out.stderrColor || total < 2) return none;
  let done = 0;
  const spinner = await startSpinner(out.io.stderr, `${label} 0/${total}`);
  return spinner ? { ...spinner, tick: () => spinner.update(`${label} ${++done}/${total}`) } : none;
}
