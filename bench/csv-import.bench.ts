import { Readable } from 'node:stream';
import { apiFixture } from '../apps/api/test/support/api-fixture.js';
import { check, finishBench, round } from './lib/index.js';

/**
 * Streamed CSV import: `POST /v1/prospects/import` with 100,000 rows (the real API
 * in this process, app.inject, a database of its own), the body generated as it is
 * read, so the file itself never sits in memory on either side. Records the peak
 * RSS of the process (target: under 150 MB) and the rows per second; one row in
 * 1,000 is bad, to exercise the report.
 *
 * Sizes: BENCH_CSV_ROWS (100000).
 */
const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const BAD_EVERY = 1_000;
const TOKEN = 'bench-csv-admin-token-0123456789';

function* csvLines(): Generator<string> {
  yield 'Email,First Name,Last Name,Company,Job Title,City\n';
  for (let i = 1; i <= ROWS; i++) {
    const email = i % BAD_EVERY === 0 ? `not-an-address-${i}` : `person${i}@csv-bench.example`;
    yield `${email},First${i},Last${i},"Company ${i % 500}, Inc.",Engineer ${i % 7},City ${i % 100}\n`;
  }
}

/** Lines grouped into chunks of about 64 KB, as a socket delivers them. */
function* chunks(): Generator<string> {
  let buf = '';
  for (const line of csvLines()) {
    buf += line;
    if (buf.length >= 65_536) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

const f = await apiFixture('bench_csv', { adminToken: TOKEN });
try {
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  const res = await f.app.inject({
    method: 'POST',
    url: '/v1/prospects/import',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' },
    payload: Readable.from(chunks()),
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const body = res.json() as { imported: number; rejected: number };
  const { rows } = await f.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM prospect');
  const expectedBad = Math.floor(ROWS / BAD_EVERY);
  const peakMb = peak / 1024 / 1024;
  await finishBench({
    name: 'csv-import',
    figures: {
      rows: ROWS,
      imported: body.imported,
      rejected: body.rejected,
      prospectRows: rows[0]?.n ?? 0,
      seconds: round(seconds),
      rowsPerSecond: round(ROWS / seconds),
      peakRssMb: round(peakMb),
      rssBeforeMb: round(rssBefore / 1024 / 1024),
    },
    checks: [check('peak RSS (MB) for 100,000 rows', peakMb, '<', 150)],
    notes: [
      'peak RSS of the whole process (API, pg pool, ioredis, the generator of the body), sampled every 20 ms',
    ],
  });
  if (res.statusCode !== 200 || body.imported !== ROWS - expectedBad || body.rejected !== expectedBad) {
    process.stderr.write(`unexpected answer ${res.statusCode}: ${res.body.slice(0, 500)}\n`);
    process.exitCode = 1;
  }
} finally {
  await f.close();
}
