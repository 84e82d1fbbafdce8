// The checks a monitor has run, oldest first, kept for its report (reports.ts) and for
// `GET /__emulator/checks`. A ring of two typed arrays: 12 bytes a check, at most HISTORY_CHECKS of them,
// which cover a report's whole period (24 simulated hours) at the shortest interval (30 s), so a report
// never lacks a check of its period and a monitor's memory stays bounded however long it lives.

/** 24 hours of checks every 30 seconds: the most a report's period can hold. */
export const HISTORY_CHECKS = (24 * 3600) / 30;

/** One check as the history holds it: when (ms), and its latency (up) or the cause of its failure (down). */
export interface HistoryEntry {
  at: number;
  /** The n of the check (0 for the monitor's first). */
  n: number;
  latency: number | null;
  cause: string | null;
}

export class CheckHistory {
  private times = new Float64Array(16);
  /** A latency (>= 0) for a check that succeeded, or -1 - (the index of its cause in `causes`) for one that failed. */
  private values = new Int32Array(16);
  private head = 0;
  length = 0;
  /** Checks run so far: the n of the next one. */
  run = 0;
  /** The causes of failures seen, so a failed check costs a small index, not a string. */
  private readonly causes: string[] = [];

  push(at: number, latency: number | null, cause: string): void {
    if (this.length === this.times.length && this.length < HISTORY_CHECKS) this.grow();
    let value = latency ?? 0;
    if (latency === null) {
      let k = this.causes.indexOf(cause);
      if (k < 0) k = this.causes.push(cause) - 1;
      value = -1 - k;
    }
    const slot = (this.head + this.length) % this.times.length;
    this.times[slot] = at;
    this.values[slot] = value;
    if (this.length < this.times.length) this.length++;
    else this.head = (this.head + 1) % this.times.length; // full: the oldest goes
    this.run++;
  }

  private grow(): void {
    const size = Math.min(HISTORY_CHECKS, this.times.length * 2);
    const times = new Float64Array(size);
    const values = new Int32Array(size);
    for (let i = 0; i < this.length; i++) {
      const slot = (this.head + i) % this.times.length;
      times[i] = this.times[slot] as number;
      values[i] = this.values[slot] as number;
    }
    this.times = times;
    this.values = values;
    this.head = 0;
  }

  /** The i-th check kept, oldest first. */
  entry(i: number): HistoryEntry {
    const slot = (this.head + i) % this.times.length;
    const value = this.values[slot] as number;
    return {
      at: this.times[slot] as number,
      n: this.run - this.length + i,
      latency: value >= 0 ? value : null,
      cause: value >= 0 ? null : (this.causes[-1 - value] as string),
    };
  }

  /** The index of the first check kept at or after `at` (ms): checks are kept in time order. */
  firstFrom(at: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.times[(this.head + mid) % this.times.length] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** A min-heap of what falls due when (ms): the scheduler takes what is due without reading every monitor. */
export class DueQueue<T> {
  private readonly items: Array<{ due: number; item: T }> = [];

  get size(): number {
    return this.items.length;
  }

  push(due: number, item: T): void {
    const items = this.items;
    items.push({ due, item });
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.due <= items[i]!.due) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  /** The earliest entry due by `at`, taken off the queue, or undefined when none is. */
  popDue(at: number): { due: number; item: T } | undefined {
    const items = this.items;
    if (items.length === 0 || items[0]!.due > at) return undefined;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && items[l]!.due < items[m]!.due) m = l;
        if (r < items.length && items[r]!.due < items[m]!.due) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i]!, items[m]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
