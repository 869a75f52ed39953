import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
const r = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
async function trial(label: string, opts: any, data: (id: string) => any, n = 20000) {
  const prefix = `tbbench-probe-${Math.random().toString(36).slice(2, 8)}`;
  const q = new Queue('touches', { connection: r, prefix });
  await q.waitUntilReady();
  const before = Number(/used_memory:(\d+)/.exec(await r.info('memory'))![1]);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) {
    await q.addBulk(Array.from({ length: 1000 }, (_, j) => { const id = randomUUID(); return { name: 'touch.send', data: data(id), opts: { ...opts, jobId: `${id}-1`, delay: 86400000 + (i + j) } }; }));
  }
  const ms = performance.now() - t0;
  const after = Number(/used_memory:(\d+)/.exec(await r.info('memory'))![1]);
  const [, keys] = await r.scan('0', 'MATCH', `${prefix}:touches:*-1`, 'COUNT', 100);
  const k = keys[0]!;
  console.log(label, { perJob: Math.round((after - before) / n), rate: Math.round(n / ms * 1000), enc: await r.object('ENCODING', k), usage: await r.memory('USAGE', k), h: await r.hgetall(k) });
  let c = '0'; do { const [nx, ks] = await r.scan(c, 'MATCH', `${prefix}:*`, 'COUNT', 5000); c = nx; if (ks.length) await r.unlink(...ks); } while (c !== '0');
  await q.close();
}
const ours = { attempts: 8, backoff: { type: 'exponential', delay: 2000, jitter: 0.5 }, removeOnComplete: true, removeOnFail: { age: 604800, count: 10000 } };
await trial('ours', ours, (id) => ({ e: id, s: 1 }));
await trial('raw-small', {}, (id) => ({ e: id, s: 1 }));
await trial('raw-small-x', {}, () => ({ x: 1 }));
await trial('attempts-only', { attempts: 8, backoff: { type: 'exponential', delay: 2000 } }, (id) => ({ e: id, s: 1 }));
r.disconnect();
