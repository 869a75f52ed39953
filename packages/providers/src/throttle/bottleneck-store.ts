import type Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';

/** What of Bottleneck's Redis datastore (2.19, a frozen release) the wrapper replaces. */
type BottleneckStore = {
  runScript(name: string, args: (string | number)[]): Promise<unknown>;
  prepareInitSettings(clear: boolean): (string | number)[];
};

/** Raises a limiter's `nextRequest` (the spacing) to ARGV[1], never lowers it; nothing when the limiter is missing. */
const RAISE_NEXT_REQUEST = `
local cur = tonumber(redis.call('hget', KEYS[1], 'nextRequest'))
if cur == nil then return 0 end
if cur < tonumber(ARGV[1]) then redis.call('hset', KEYS[1], 'nextRequest', ARGV[1]) return 1 end
return 0`;

/** Where a limiter's `init` starts it: its reservoir, and the earliest next grant (null: Bottleneck's own). */
export type LimiterSeed = { reservoir: number; nextRequestAt: number | null };

/**
 * Wraps a Bottleneck limiter's Redis datastore (its `runScript`; Bottleneck has no hook),
 * for two things:
 * - Redis loss on Redis 7. Bottleneck re-creates a lost limiter when a script answers
 *   `SETTINGS_KEY_NOT_FOUND` (and re-registers on `UNKNOWN_CLIENT`), but Redis 7 prefixes
 *   a script's error with `ERR `, so Bottleneck 2.19 no longer recognises either and
 *   every later call fails. The wrapper recognises both and does what Bottleneck meant.
 * - With `seed`, each `init` (the first, and each one after a loss) starts the reservoir
 *   where `seed` says (read at the init), then raises `nextRequest` to its `nextRequestAt`.
 *
 * Call it before the limiter's first init runs (the datastore starts it once its
 * connection is ready). `id` is the limiter's id.
 */
export function wrapLimiterStore(
  limiter: Bottleneck,
  opts: { redis: Redis; id: string; seed?: (() => Promise<LimiterSeed>) | undefined },
): void {
  const store = (limiter as unknown as { _store: BottleneckStore })._store;
  const run = store.runScript.bind(store);
  const seed = opts.seed;
  const seededInit = async (args: (string | number)[]) => {
    if (!seed) return run('init', args);
    const { reservoir, nextRequestAt } = await seed();
    const seeded = [...args];
    const at = seeded.indexOf('reservoir');
    // args: clear flag, version, then key, value pairs (values as strings).
    if (at >= 2 && at % 2 === 0) seeded[at + 1] = String(reservoir);
    const done = await run('init', seeded);
    if (nextRequestAt !== null) {
      await opts.redis.eval(RAISE_NEXT_REQUEST, 1, `b_${opts.id}_settings`, nextRequestAt);
    }
    return done;
  };
  // A lost limiter answers SETTINGS_KEY_NOT_FOUND, then (re-created) UNKNOWN_CLIENT for
  // this client: a few recoveries in a row, not a loop.
  const call = async (name: string, args: (string | number)[], recoveries: number): Promise<unknown> => {
    if (name === 'init') return seededInit(args);
    try {
      return await run(name, args);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (recoveries > 0 && message.endsWith('SETTINGS_KEY_NOT_FOUND')) {
        // An idle limiter Redis forgot (its keys expire) stays forgotten; one with jobs
        // queued in this process is re-created: nothing else would ask Redis for them
        // again, and the touches waiting on those jobs stalled for good after a loss.
        if (name === 'heartbeat' && limiter.queued() === 0) return undefined;
        await seededInit(store.prepareInitSettings(false));
        return call(name, args, recoveries - 1);
      }
      if (recoveries > 0 && message.endsWith('UNKNOWN_CLIENT')) {
        await call('register_client', [limiter.queued()], recoveries - 1);
        return call(name, args, recoveries - 1);
      }
      throw error;
    }
  };
  store.runScript = (name, args) => call(name, args, 3);
}
