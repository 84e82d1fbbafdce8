// The state of `cpk emulator --persist FILE` (docs/emulator.md): FILE holds the whole state as of its
// last rewrite, FILE.journal the changes since, fsynced before the answer that shows them; changes arriving
// during a write share the next one (group commit). A rewrite starts a new generation of the journal; one of
// another generation than FILE's is stale and ignored, so a crash between the two steps loses nothing and
// replays nothing twice.
import { open, readdir, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory, writeFileAtomic } from '../core/atomic-file.js';
import { readFileText, UnreadableFileError } from '../core/io.js';
import { Refusal } from './respond.js';
import { parseJson, stringifyJson } from '../core/json.js';
import type { PersistedState, Store } from './store.js';

/** Background changes (scheduled checks) are saved at most this often. */
const BACKGROUND_SAVE_MS = 1000;

/** Removes the temporary files (`.<name>.<unique>.tmp` beside `file`) of atomic writes a crash left behind. */
async function removeOrphans(file: string): Promise<void> {
  const prefix = `.${basename(file)}.`;
  // No directory yet: the first write will say why, if it cannot.
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  const orphans = names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'));
  await Promise.all(orphans.map((name) => rm(join(dirname(file), name), { force: true })));
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A refusal in words (a FIFO) names the file; the system's errors are told by their code.
    if (error instanceof UnreadableFileError && error.code === undefined)
      throw new Error(`cannot read ${file}: ${error.message}`);
    throw error;
  }
}

/** The journal is folded into the state file once it is larger than the state and this. */
const JOURNAL_MIN_BYTES = 1024 * 1024;

/** A line of the state or the journal; its numbers exact, as the monitors' own fields keep them. */
function parseLine(line: string): unknown {
  const parsed = parseJson(line);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Replays the journal of `generation` into `store`. A journal of another
 * generation is stale (the state was rewritten after it); a last line cut
 * short by a crash was never acknowledged and is ignored.
 */
function replayJournal(journalFile: string, generation: number, store: Store): void {
  const lines = readIfExists(journalFile)?.split('\n') ?? [];
  if ((parseLine(lines[0] ?? '') as { generation?: unknown } | null)?.generation !== generation) return;
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const record = parseLine(line);
    if (record === undefined) return; // torn by a crash mid-write: never acknowledged
    try {
      store.applyRecord(record);
    } catch (error) {
      throw new Error(`${journalFile}: ${(error as Error).message}`);
    }
  }
}

/** Loads `file` and its journal into `store` (a missing file is an empty start) and returns the writer. */
export async function openPersistence(file: string, store: Store) {
  const journalFile = `${file}.journal`;
  const text = readIfExists(file);
  let generation = 0;
  if (text !== undefined) {
    const parsed = parseLine(text);
    if (parsed === undefined) throw new Error(`${file} is not an emulator state file (not JSON)`);
    try {
      store.restore(parsed);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    const g = (parsed as PersistedState).journal_generation;
    generation = typeof g === 'number' && Number.isInteger(g) ? g : 0;
    replayJournal(journalFile, generation, store);
  }
  await removeOrphans(file);

  let journal: FileHandle | undefined;
  let journalBytes = 0;
  let stateBytes = 0;
  /** A journal write failed: what it held may be missing, so the next write is the whole state. */
  let rewriteWhole = true;

  /** Writes the whole state under a new generation, then starts an empty journal of that generation. */
  const rewrite = async () => {
    store.takeChanges(); // all of it is in the snapshot
    generation += 1;
    const state = stringifyJson({ ...store.snapshot(), journal_generation: generation });
    await writeFileAtomic(file, state);
    stateBytes = state.length;
    await journal?.close().catch(() => {});
    journal = undefined;
    await writeFile(journalFile, `${JSON.stringify({ generation })}\n`, { mode: 0o600, flush: true });
    await syncDirectory(dirname(file));
    journal = await open(journalFile, 'a');
    journalBytes = 0;
  };

  /** The store's version last written or loaded. */
  let durable = store.version;
  let background: ReturnType<typeof setTimeout> | undefined;

  const writeOnce = async (): Promise<void> => {
    const version = store.version;
    if (version === durable) return;
    const changes = store.takeChanges();
    if (rewriteWhole || changes === 'all' || !journal || journalBytes > Math.max(JOURNAL_MIN_BYTES, stateBytes)) {
      rewriteWhole = true;
      await rewrite();
    } else if (changes.length > 0) {
      const lines = changes.map((c) => `${stringifyJson(c)}\n`).join('');
      rewriteWhole = true; // until this append is known to be whole and on disk
      await journal.write(lines);
      await journal.datasync();
      journalBytes += lines.length;
    }
    rewriteWhole = false;
    durable = version;
  };

  /** The write running, or the last one. */
  let current: Promise<void> = Promise.resolve();
  /** The next write, shared by every change since `current` began; one turn after it, so requests gather. */
  let next: Promise<void> | undefined;
  const durableAt = (version: number): Promise<void> => {
    if (version <= durable) return Promise.resolve();
    next ??= current
      .catch(() => {})
      .then(() => new Promise<void>((go) => setImmediate(go)))
      .then(() => {
        next = undefined;
        return (current = writeOnce());
      });
    return next;
  };

  return {
    /** Resolves once every change so far is durable; else throws a 500 Refusal, not a success it cannot keep. */
    save: () =>
      durableAt(store.version).catch((error: NodeJS.ErrnoException) => {
        throw new Refusal(500, `the change could not be saved to the state file (${error.code ?? error.message})`);
      }),
    /** The state changed without a client waiting (a scheduled check): saved soon, coalesced. */
    changed() {
      if (background) return;
      background = setTimeout(() => {
        background = undefined;
        void durableAt(store.version).catch(() => {
          // Retried with the next change; nobody was promised this one.
        });
      }, BACKGROUND_SAVE_MS);
      background.unref();
    },
    /** Resolves once everything changed so far is on disk (or failed to be). */
    async flush() {
      if (background) clearTimeout(background);
      background = undefined;
      await durableAt(store.version).catch(() => {});
      await current.catch(() => {});
      // On a clean stop, FILE alone holds everything (a journal then stays empty).
      if (journalBytes > 0) await rewrite().catch(() => {});
      await journal?.close().catch(() => {});
      journal = undefined;
    },
  };
}
