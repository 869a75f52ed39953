/**
 * A binary min-heap of (time, sequence number, enrollment) on the virtual clock.
 * Ties in time go to the event scheduled first, so a run never depends on the
 * heap's internal order: the same inputs give the same order of events.
 */
export class EventQueue {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: number[] = [];
  private counter = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, item: number): void {
    this.times.push(time);
    this.seqs.push(this.counter++);
    this.items.push(item);
    this.up(this.times.length - 1);
  }

  /** The earliest event's time, or Infinity when empty. */
  peekTime(): number {
    return this.times.length > 0 ? (this.times[0] as number) : Number.POSITIVE_INFINITY;
  }

  /** Removes the earliest event and returns its item. */
  pop(): number {
    const item = this.items[0] as number;
    const last = this.times.length - 1;
    this.move(last, 0);
    this.times.pop();
    this.seqs.pop();
    this.items.pop();
    if (this.times.length > 0) this.down(0);
    return item;
  }

  /** Every pending item with its time, earliest first (for what is left at the horizon). */
  drain(): { time: number; item: number }[] {
    const out: { time: number; item: number }[] = [];
    while (this.size > 0) {
      const time = this.peekTime();
      out.push({ time, item: this.pop() });
    }
    return out;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from] as number;
    this.seqs[to] = this.seqs[from] as number;
    this.items[to] = this.items[from] as number;
  }

  private swap(a: number, b: number): void {
    const t = this.times[a] as number;
    const s = this.seqs[a] as number;
    const i = this.items[a] as number;
    this.move(b, a);
    this.times[b] = t;
    this.seqs[b] = s;
    this.items[b] = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.times.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
