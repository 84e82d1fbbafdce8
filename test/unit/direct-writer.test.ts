// src/io.ts directWriter: help is written with write(2) at once; a pipe that
// is full and non-blocking (EAGAIN) hands the rest, and every later text, to
// the stream, in order; any other failure is recorded as the stream's would be.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directWriter, StdoutFailure } from '../../src/io.js';

const hasFifo = process.platform === 'linux' && spawnSync('mkfifo', ['--version']).status === 0;

/** A FIFO opened non-blocking at both ends. */
function fifo(): { reader: number; writer: number; close: () => void } {
  const path = join(mkdtempSync(join(tmpdir(), 'cpk-fifo-')), 'p');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { reader, writer, close: () => (closeSync(reader), closeSync(writer)) };
}

function readAllNow(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    try {
      const n = readSync(fd, buffer);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
  }
  return Buffer.concat(chunks);
}

describe.runIf(hasFifo)('directWriter', () => {
  it('writes everything at once when there is room', () => {
    const p = fifo();
    const streamed: Array<string | Uint8Array> = [];
    const w = directWriter(p.writer, (c) => streamed.push(c), new StdoutFailure());
    expect(w.write('Usage: cpk\n')).toBe(true);
    expect(w.write('é ✓\n')).toBe(true);
    expect(readAllNow(p.reader).toString('utf8')).toBe('Usage: cpk\né ✓\n');
    expect(streamed).toEqual([]);
    p.close();
  });

  it('hands the bytes a full pipe refused (EAGAIN), and every later text, to the stream, in order', () => {
    const p = fifo();
    const streamed: Array<string | Uint8Array> = [];
    const failure = new StdoutFailure();
    const w = directWriter(p.writer, (c) => streamed.push(c), failure);
    // More than the pipe holds, with a multi-byte character across every boundary.
    const text = '✓'.repeat(100_000);
    w.write(text);
    w.write('after\n');
    const written = readAllNow(p.reader);
    expect(written.length).toBeGreaterThan(0);
    expect(streamed).toHaveLength(2);
    const rest = Buffer.from(streamed[0] as Uint8Array);
    expect(Buffer.concat([written, rest]).toString('utf8')).toBe(text);
    expect(streamed[1]).toBe('after\n');
    expect(failure.error).toBeUndefined();
    p.close();
  });

  it('records any other failure (a closed pipe) and drops later writes', () => {
    const p = fifo();
    closeSync(p.reader);
    const streamed: Array<string | Uint8Array> = [];
    const failure = new StdoutFailure();
    const w = directWriter(p.writer, (c) => streamed.push(c), failure);
    expect(w.write('Usage: cpk\n')).toBe(false);
    expect(failure.error?.code).toBe('EPIPE');
    expect(w.write('more\n')).toBe(false);
    expect(streamed).toEqual([]);
    closeSync(p.writer);
  });
});
