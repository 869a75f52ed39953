/**
 * Coalesces calls made close together into one call over all of them: the first
 * `submit` opens a batch, which runs on the next turn of the event loop (or as soon
 * as it holds `maxSize` items) with everything submitted meanwhile. Each caller
 * gets its own item's result; when the batch call fails, every caller of that
 * batch gets the error (each is then retried as it would have been alone).
 *
 * With `alone`, a batch that fails with an error it accepts is run again one item at
 * a time, so that only the items that fail on their own fail (one poisonous item, or
 * a deadlock between the batch's own locks, does not fail its neighbours).
 *
 * With `maxInFlight`, at most that many batches run at once and the calls made
 * meanwhile wait for the next one (group commit): under load the batches grow by
 * themselves to what the database can take, and at low load a call waits for
 * nothing but one turn of the loop.
 *
 * With `holdMs`, a batch that would start while another is running (the sign that
 * calls keep coming) waits until its first call is that old, so that the calls
 * arriving meanwhile share its statement instead of each running nearly alone: a
 * reply storm pays a statement's fixed cost (round trip, plan, commit) once per
 * several replies. A call made while no batch runs goes on the next turn, as
 * without it: a lone call is never held.
 */
export class MicroBatcher<I, O> {
  private pending: { item: I; at: number; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  /** The timer of a batch held open (see `holdMs`). */
  private hold: ReturnType<typeof setTimeout> | null = null;
  private inFlight = 0;

  constructor(
    /** Runs one batch; returns one result per item, in the same order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxSize = 100,
    private readonly maxInFlight = Number.POSITIVE_INFINITY,
    /** Told the size of each batch as it starts (for a metric). */
    private readonly onBatch?: (size: number) => void,
    /** Whether a failed batch's items are run again one by one (each then gets its own result or error). */
    private readonly alone?: (err: unknown) => boolean,
    /** How long, from its first call, a batch waits for more while another batch runs (0: it does not). */
    private readonly holdMs = 0,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, at: this.holdMs > 0 ? performance.now() : 0, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else this.schedule();
    });
  }

  /** `settled`: a batch just ended, so what it kept waiting goes now, held or not. */
  private schedule(settled = false): void {
    if (this.pending.length === 0) return;
    if (this.hold && settled) {
      clearTimeout(this.hold);
      this.hold = null;
      this.scheduled = false;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      this.hold = null;
      this.flush();
    };
    // Held only while a batch runs, never past `holdMs` after its first call.
    const wait =
      this.inFlight > 0 && !settled
        ? (this.pending[0] as { at: number }).at + this.holdMs - performance.now()
        : 0;
    if (wait > 0.05) this.hold = setTimeout(go, wait);
    else setImmediate(go);
  }

  private flush(): void {
    if (this.pending.length === 0 || this.inFlight >= this.maxInFlight) return;
    const batch = this.pending.splice(0, this.maxSize);
    this.inFlight++;
    this.onBatch?.(batch.length);
    this.run(batch.map((b) => b.item))
      .then(
        (results) => {
          if (results.length !== batch.length) {
            const err = new Error(`batch returned ${results.length} results for ${batch.length} items`);
            for (const b of batch) b.reject(err);
            return;
          }
          for (const [i, b] of batch.entries()) b.resolve(results[i] as O);
        },
        async (err: unknown) => {
          if (batch.length === 1 || !this.alone?.(err)) {
            for (const b of batch) b.reject(err);
            return;
          }
          for (const b of batch) {
            try {
              const [result] = await this.run([b.item]);
              b.resolve(result as O);
            } catch (itsOwn) {
              b.reject(itsOwn);
            }
          }
        },
      )
      .finally(() => {
        this.inFlight--;
        // What gathered while this batch ran goes next.
        if (this.pending.length >= this.maxSize) this.flush();
        else this.schedule(true);
      });
  }
}
