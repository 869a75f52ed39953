import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { standardWebhookHeaders } from '@touchbase/providers';
import autocannon from 'autocannon';

/**
 * The HTTP load generator of the benches, run as a process of its own (see
 * {@link runLoad} in load.ts) so that its CPU is never charged to the server it drives:
 * autocannon posting `opened` webhooks, each with a fresh message id and signed as
 * Standard Webhooks (the bare route gets the very same requests and ignores the
 * signature). Config in LOADGEN (JSON): url, path, connections, warmMs, durationMs,
 * secret, idsFile (enrollment ids, one a line).
 * Prints `measuring` when the warm-up is over, then one JSON line with the result.
 */
type Config = {
  url: string;
  path: string;
  connections: number;
  warmMs: number;
  durationMs: number;
  secret: string;
  idsFile: string;
};
const cfg = JSON.parse(process.env.LOADGEN ?? '{}') as Config;
const ids = readFileSync(cfg.idsFile, 'utf8').split('\n').filter(Boolean);
let n = 0;

function signed(req: autocannon.Request): autocannon.Request {
  const i = n++;
  const body = JSON.stringify({
    type: 'opened',
    occurred_at: new Date().toISOString(),
    enrollment_id: ids[(i * 7919) % ids.length],
  });
  return {
    ...req,
    body,
    headers: {
      'content-type': 'application/json',
      ...standardWebhookHeaders(cfg.secret, `msg_${randomUUID()}`, body),
    },
  };
}

function run(ms: number): Promise<autocannon.Result> {
  return autocannon({
    url: cfg.url,
    connections: cfg.connections,
    duration: ms / 1000,
    requests: [{ method: 'POST', path: cfg.path, setupRequest: signed }],
  });
}

if (cfg.warmMs > 0) await run(cfg.warmMs);
process.stdout.write('measuring\n');
const r = await run(cfg.durationMs);
process.stdout.write(
  `${JSON.stringify({
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: r.duration,
    perSecond: r['2xx'] / r.duration,
    latencyMsP50: r.latency.p50,
    latencyMsP99: r.latency.p99,
  })}\n`,
);
