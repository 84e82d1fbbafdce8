// The state of `cpk emulator --persist FILE`: FILE holds the whole state
// as of its last rewrite, FILE.journal the changes since (one JSON line each,
// the changed monitor or channel as it now is, or a deletion). A change is on
// disk (appended to the journal and fsynced) before the answer that shows it
// is sent, so a crash never loses what a client was told succeeded. Changes
// that arrive while a write is running share the next one (group commit): one
// fsync serves every request waiting on it. When the journal outgrows the
// state, the state is rewritten whole (temporary file beside it, fsync,
// rename, directory fsync) under a new generation and the journal starts
// again; a journal of another generation than FILE's is stale and ignored, so
// a crash between those two steps loses nothing and replays nothing twice.
import { open, readdir, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory, writeFileAtomic } from '../core/atomic-file.js';
import { Refusal } from './respond.js';
import type { PersistedState, Store } from './store.js';

interface Persistence {
  /**
   * Resolves once every change made so far is durable; when it cannot be
   * saved, throws a 500 Refusal for the client instead of a success it could
   * not rely on.
   */
  save(): Promise<void>;
  /** The state changed without a client waiting (a scheduled check): saved soon, coalesced. */
  changed(): void;
  /** Resolves once everything changed so far is on disk (or failed to be). */
  flush(): Promise<void>;
}

/** Background changes (scheduled checks) are saved at most this often. */
const BACKGROUND_SAVE_MS = 1000;

/**
 * Temporary files of the atomic writes of `file` (`.<name>.<unique>.tmp`
 * beside it) that a crash left behind; removed at start. Only this file's
 * prefix is touched.
 */
async function removeOrphans(file: string): Promise<void> {
  const prefix = `.${basename(file)}.`;
  // No directory yet: the first write will say why, if it cannot.
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  const orphans = names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'));
  await Promise.all(orphans.map((name) => rm(join(dirname(file), name), { force: true })));
}

/** The text of `file`, or undefined when there is no such file. */
function readIfExists(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(error),
  );
}

/** The journal is folded into the state file once it is larger than the state and this. */
const JOURNAL_MIN_BYTES = 1024 * 1024;

/** JSON text's value, or undefined when it is not JSON. */
function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Replays the journal of `generation` into `store`. A journal of another
 * generation is stale (the state was rewritten after it); a last line cut
 * short by a crash was never acknowledged and is ignored.
 */
async function replayJournal(journalFile: string, generation: number, store: Store): Promise<void> {
  const lines = (await readIfExists(journalFile))?.split('\n') ?? [];
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
export async function openPersistence(file: string, store: Store): Promise<Persistence> {
  const journalFile = `${file}.journal`;
  const text = await readIfExists(file);
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
    await replayJournal(journalFile, generation, store);
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
    const state = JSON.stringify({ ...store.snapshot(), journal_generation: generation });
    await writeFileAtomic(file, state);
    stateBytes = state.length;
    await journal?.close().catch(() => {});
    journal = undefined;
    await writeFile(journalFile, `${JSON.stringify({ generation })}\n`, { mode: 0o600, flush: true });
    await syncDirectory(dirname(file));
    journal = await open(journalFile, 'a');
    journalBytes = 0;
  };

  /** The store's version last written (or loaded). */
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
      const lines = changes.map((c) => `${JSON.stringify(c)}\n`).join('');
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
  /**
   * The next write: every change made since `current` began waits for it and
   * shares it (one fsync for all). It starts once `current` is done, one turn
   * of the event loop later, so the requests that arrived together gather.
   */
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
    save: () =>
      durableAt(store.version).catch((error: NodeJS.ErrnoException) => {
        throw new Refusal(500, `the change could not be saved to the state file (${error.code ?? error.message})`);
      }),
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
