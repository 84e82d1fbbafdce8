// Replaces a file so that a reader (or a crash, a Ctrl-C, a power cut) sees
// either the old content or the new, never half of it: write a temporary file
// in the same directory, fsync it, rename it over the target (atomic within a
// file system), then fsync the directory so the rename itself is durable.
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode (default 0o666 less the umask); 0o600 for files that name accounts. */
  mode?: number;
  /** fsync the file and its directory (default true); a cache (the inventory) need not survive a power cut. */
  durable?: boolean;
}

export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable !== false;
  const dir = dirname(path);
  // Created with O_EXCL ('wx'): a clash of random names fails instead of sharing a file.
  const temp = join(dir, `.${basename(path)}.${randomUUID()}.tmp`);
  const file = await open(temp, 'wx', options.mode);
  try {
    try {
      await file.writeFile(text, 'utf8');
      if (durable) await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (durable) await syncDirectory(dir);
}

/** fsyncs a directory, so that a file created or renamed in it stays after a power cut. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform can open or fsync a directory (Windows): the rename is still atomic there.
  }
}
