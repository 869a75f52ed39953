import { Worker } from 'node:worker_threads';

/** What a {@link watchGrantLog} saw: every grant (member -> grant time) and how well it looked. */
export type GrantLogSeen = {
  grants: Map<string, number>;
  /** The longest time between two reads of the log: a grant older than the log keeps is lost past it. */
  maxGapMs: number;
  reads: number;
};

// Plain CommonJS for an eval'd worker: ioredis is resolved from this file's place.
const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { Redis, Cluster } = createRequire(workerData.from)('ioredis');
const redis = workerData.cluster
  ? new Cluster(workerData.nodes, { lazyConnect: false })
  : new Redis(workerData.nodes[0]);
let stopping = false;
parentPort.on('message', () => { stopping = true; });
(async () => {
  const seen = new Map();
  let last = 0;
  let maxGapMs = 0;
  let reads = 0;
  while (!stopping) {
    const flat = await redis.zrange(workerData.key, 0, -1, 'WITHSCORES');
    const now = performance.now();
    if (last) maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    if (reads++ === 0) parentPort.postMessage({ ready: true });
    for (let i = 0; i < flat.length; i += 2)
      if (flat[i].startsWith('g:')) seen.set(flat[i].slice(2), Number(flat[i + 1]));
    await new Promise((r) => setTimeout(r, 5));
  }
  redis.disconnect();
  parentPort.postMessage({ grants: [...seen], maxGapMs, reads });
})().catch((err) => {
  redis.disconnect();
  parentPort.postMessage({ error: String(err && err.stack || err) });
});
`;

/**
 * Reads a mailbox's grant log (`<prefix>:throttle:{<mailbox>}`) over and over, in a
 * thread of its own, and keeps every grant it sees. The log keeps only the longest
 * cap window (a day: 300 ms at the tests' time scale), so a reader that pauses longer
 * than that loses grants: a test that runs the whole system in its own event loop
 * (and on a loaded machine) pauses for that long, a thread of its own does not.
 */
export async function watchGrantLog(opts: {
  key: string;
  /** `{ host, port }` of the Redis (or of the cluster's masters). */
  nodes: { host: string; port: number }[];
  cluster: boolean;
}): Promise<{ stop(): Promise<GrantLogSeen> }> {
  const worker = new Worker(WATCHER, {
    eval: true,
    workerData: { ...opts, from: import.meta.url },
  });
  type Message = {
    ready?: true;
    error?: string;
    grants: [string, number][];
    maxGapMs: number;
    reads: number;
  };
  let ready: () => void = () => undefined;
  const firstRead = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const result = new Promise<GrantLogSeen>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: Message) => {
      if (m.ready) ready();
      else if (m.error) reject(new Error(`grant log watcher: ${m.error}`));
      else resolve({ grants: new Map(m.grants), maxGapMs: m.maxGapMs, reads: m.reads });
    });
  });
  // The log is read once before the caller goes on; a failure before then is thrown here.
  await Promise.race([firstRead, result]);
  // A later failure is reported by stop(), not as an unhandled rejection before it.
  void result.catch(() => undefined);
  return {
    async stop() {
      worker.postMessage('stop');
      try {
        return await result;
      } finally {
        await worker.terminate();
      }
    },
  };
}
