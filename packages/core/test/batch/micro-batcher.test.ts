import { describe, expect, it } from 'vitest';
import { MicroBatcher } from '../../src/index.js';

describe('MicroBatcher', () => {
  it('runs the calls of one turn of the event loop as one batch, each caller getting its own result', async () => {
    const batches: number[][] = [];
    const b = new MicroBatcher(async (xs: number[]) => {
      batches.push(xs);
      return xs.map((x) => x * 10);
    });
    const results = await Promise.all([1, 2, 3].map((x) => b.submit(x)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await b.submit(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('never holds more than its size in one batch', async () => {
    const sizes: number[] = [];
    const b = new MicroBatcher(async (xs: number[]) => {
      sizes.push(xs.length);
      return xs;
    }, 4);
    expect(await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i)))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('fails every caller of a failed batch, and the next batch runs anew', async () => {
    let fail = true;
    const b = new MicroBatcher(async (xs: number[]) => {
      if (fail) throw new Error('database away');
      return xs;
    });
    const first = await Promise.allSettled([b.submit(1), b.submit(2)]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await b.submit(3)).toBe(3);
  });

  it('with `alone`, runs a failed batch again item by item: only the item that fails on its own fails', async () => {
    const batches: number[][] = [];
    const b = new MicroBatcher(
      async (xs: number[]) => {
        batches.push(xs);
        if (xs.includes(2)) throw Object.assign(new Error('bad item'), { code: 'bad' });
        return xs.map((x) => x * 10);
      },
      100,
      Number.POSITIVE_INFINITY,
      undefined,
      (err) => (err as { code?: string }).code === 'bad',
    );
    const results = await Promise.allSettled([1, 2, 3].map((x) => b.submit(x)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      10,
      'bad item',
      30,
    ]);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
    // An error it does not accept fails the whole batch at once, as without `alone`.
    const other = new MicroBatcher(
      async (): Promise<number[]> => {
        throw new Error('database away');
      },
      100,
      Number.POSITIVE_INFINITY,
      undefined,
      (err) => (err as { code?: string }).code === 'bad',
    );
    const failed = await Promise.allSettled([other.submit(1), other.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('fails the callers when a batch answers for the wrong number of items', async () => {
    const b = new MicroBatcher(async (xs: number[]) => xs.slice(1));
    await expect(b.submit(1)).rejects.toThrow(/0 results for 1 items/);
  });
});

/** A batcher whose first batch runs until released (`maxInFlight`, `holdMs` as given); records every batch. */
function blockedBatcher(maxInFlight: number, holdMs: number) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  const b = new MicroBatcher(
    async (xs: number[]) => {
      batches.push(xs);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return xs;
    },
    100,
    maxInFlight,
    undefined,
    undefined,
    holdMs,
  );
  return { b, batches, release: () => release() };
}

describe('MicroBatcher with a bound on batches in flight', () => {
  it('gathers the calls made while a batch runs into the next one', async () => {
    const { b, batches, release } = blockedBatcher(1, 0);
    const first = b.submit(1);
    await new Promise((r) => setImmediate(r));
    const rest = [2, 3, 4].map((x) => b.submit(x));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });
});

describe('MicroBatcher holding a batch open while another runs', () => {
  const turn = () => new Promise((r) => setImmediate(r));
  /** Submits each of `xs` on a turn of the loop of its own. */
  async function submitOverTurns(b: MicroBatcher<number, number>, xs: number[]) {
    const calls: Promise<number>[] = [];
    for (const x of xs) {
      calls.push(b.submit(x));
      await turn();
    }
    return calls;
  }

  it('runs a call made while no batch runs on the next turn, never held', async () => {
    // A hold of a minute: a lone call that waited for it would time the test out.
    const { b, batches, release } = blockedBatcher(2, 60_000);
    const first = b.submit(1);
    await turn();
    expect(batches).toEqual([[1]]);
    release();
    expect(await first).toBe(1);
    // Nothing runs now: the next call goes at once too.
    expect(await b.submit(2)).toBe(2);
    expect(batches).toEqual([[1], [2]]);
  });

  it('holds the next batch while one runs, so the calls of several turns share it', async () => {
    const { b, batches, release } = blockedBatcher(2, 60_000);
    const first = b.submit(1);
    await turn();
    // A free slot (two in flight allowed), yet calls spread over several turns join one batch.
    const rest = await submitOverTurns(b, [2, 3, 4]);
    expect(batches).toEqual([[1]]);
    release();
    // When the running batch ends, the held calls go on the next turn, not after the hold.
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('without a hold, the free slot takes the first call made while a batch runs', async () => {
    const { b, batches, release } = blockedBatcher(2, 0);
    const first = b.submit(1);
    await turn();
    const rest = await submitOverTurns(b, [2, 3, 4]);
    expect(batches).toEqual([[1], [2], [3], [4]]);
    release();
    await Promise.all([first, ...rest]);
  });

  it('never holds a call past the hold: it runs though the other batch is still running', async () => {
    const { b, batches, release } = blockedBatcher(2, 5);
    const first = b.submit(1);
    await turn();
    expect(await b.submit(2)).toBe(2);
    expect(batches).toEqual([[1], [2]]);
    release();
    await first;
  });
});
