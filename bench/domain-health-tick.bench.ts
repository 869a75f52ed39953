import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { HealthSettings } from '@touchbase/core';
import { applyMigrations, createDatabase, createRepositories } from '@touchbase/db';
import { domainHealthTick } from '@touchbase/domain-health';
import { AlertQueue, createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import pg from 'pg';
import { check, finishBench, machineInfo, round, summarize } from './lib/index.js';
import { deletePrefix } from './lib/redis-keys.js';

/**
 * A domain-health tick over 10 million sends, beside the plain scan of the sends
 * table that the guard would otherwise run.
 *
 * Seeds a database of its own with generate_series: BENCH_DH_SENDS sent touches
 * (10,000,000) over a year, on 100 domains (2 mailboxes each), 10 per enrollment,
 * with hard bounces, complaints and replies as events (three domains bounce at
 * about 4%, the others about 0.8%). The per-day rollup is built from the same rows
 * by one GROUP BY, as the migration's backfill does. For the load, the row triggers
 * are off (session_replication_role = replica), the touch and enrollment tables are
 * unlogged and their secondary indexes dropped: neither query measured reads them
 * (both scan or use the primary keys), and rebuilding them would only lengthen the seed.
 *
 * Measured: the plain scan (the foundation's query: touches sent in the window
 * joined to their mailbox's domain, and bounce events in the window), and the real
 * `domainHealthTick` (fold the pending increments, read the window's rollup rows,
 * judge, save, enqueue alerts), each with an hour's worth of new sends (1,141
 * increments) pending before it. Both produce the same figures (checked).
 *
 * DATABASE server: BENCH_DATABASE_SERVER_URL or TEST_DATABASE_SERVER_URL
 * (postgresql://postgres@127.0.0.1:5432/postgres); Redis: REDIS_URL.
 */
const SENDS = Number(process.env.BENCH_DH_SENDS ?? 10_000_000);
const DOMAINS = 100;
const MAILBOXES = 200;
const STEPS = 10;
const HISTORY_DAYS = 365;
const TICKS = Number(process.env.BENCH_DH_TICKS ?? 10);
const SCANS = Number(process.env.BENCH_DH_SCANS ?? 3);
const ENROLLMENTS = Math.ceil(SENDS / STEPS);
const PROSPECTS = 100_000;
const HOURLY_INCREMENTS = Math.round(SENDS / HISTORY_DAYS / 24);

const serverUrl =
  process.env.BENCH_DATABASE_SERVER_URL ??
  process.env.TEST_DATABASE_SERVER_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const settings: HealthSettings = {
  bounceThreshold: 0.03,
  bounceWarnRatio: 0.8,
  minSends: 50,
  complaintAlert: 0.001,
  complaintPause: 0.003,
  complaintMinSends: 1000,
  windowDays: 7,
};
const log = (msg: string) => process.stdout.write(`${msg}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

// Deterministic ids, so a touch names its enrollment without a join while seeding.
const uuidOf = (kind: string, expr: string) =>
  `('00000000-0000-4${kind}00-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`;

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function seed(url: string): Promise<void> {
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    // Off: FK and row triggers (the rollup is built below), synchronous commit.
    await c.query(`SET session_replication_role = replica; SET synchronous_commit = off;
                   SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'`);
    return c;
  };
  const c = await connect();
  const step = async (what: string, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    await c.query(sql, params);
    log(`  ${what}: ${seconds(performance.now() - t)} s`);
  };
  try {
    await step(
      'unlogged tables, secondary indexes dropped',
      `ALTER TABLE touch SET UNLOGGED; ALTER TABLE enrollment SET UNLOGGED;
       ALTER TABLE touch DROP CONSTRAINT touch_pkey;
       DROP INDEX touch_idempotency_key_key, touch_enrollment_id_step_attempt_key, touch_provider_message_id_idx, touch_status_idx;
       DROP INDEX enrollment_prospect_id_sequence_id_key, enrollment_status_next_touch_at_idx,
                  enrollment_mailbox_id_status_idx, enrollment_sequence_id_status_idx`,
    );
    await step(
      `${DOMAINS} domains, ${MAILBOXES} mailboxes, 10 sequences, ${PROSPECTS.toLocaleString('en-US')} prospects`,
      `INSERT INTO sending_domain (id, domain) SELECT ${uuidOf('a', 'g')}, 'd' || g || '.bench.example' FROM generate_series(0, ${DOMAINS - 1}) g;
       INSERT INTO mailbox (id, provider, address, domain_id)
         SELECT ${uuidOf('b', 'g')}, 'sandbox', 'sdr' || g || '@d' || (g % ${DOMAINS}) || '.bench.example', ${uuidOf('a', `g % ${DOMAINS}`)}
         FROM generate_series(0, ${MAILBOXES - 1}) g;
       INSERT INTO sequence (id, name) SELECT ${uuidOf('c', 'g')}, 'bench ' || g FROM generate_series(0, 9) g;
       INSERT INTO sequence_version (id, sequence_id, version, steps) SELECT ${uuidOf('d', 'g')}, ${uuidOf('c', 'g')}, 1, '[]' FROM generate_series(0, 9) g;
       INSERT INTO prospect (id, email) SELECT ${uuidOf('e', 'g')}, 'p' || g || '@prospect.example' FROM generate_series(0, ${PROSPECTS - 1}) g`,
    );
    await step(
      `${ENROLLMENTS.toLocaleString('en-US')} enrollments`,
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, created_at, updated_at)
       SELECT ${uuidOf('f', 'k')}, ${uuidOf('e', `k % ${PROSPECTS}`)}, ${uuidOf('c', `k / ${PROSPECTS}`)},
              ${uuidOf('d', `k / ${PROSPECTS}`)}, ${uuidOf('b', `k % ${MAILBOXES}`)}, 'exhausted', ${STEPS + 1},
              now() - make_interval(days => (((k::bigint / ${DOMAINS}) * 7919) % ${HISTORY_DAYS})::int), now()
       FROM generate_series(0, ${ENROLLMENTS - 1}) k`,
    );
    // Two connections, one half each: both cores.
    const t = performance.now();
    const c2 = await connect();
    const half = Math.ceil(ENROLLMENTS / 2);
    const touches = (from: number, to: number) =>
      `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at, created_at)
       SELECT gen_random_uuid(), e.id, s, 'sent', e.id::text || '-' || s, e.at + make_interval(hours => s), e.at
       FROM (SELECT ${uuidOf('f', 'k')} AS id, now() - make_interval(days => (((k::bigint / ${DOMAINS}) * 7919) % ${HISTORY_DAYS})::int, hours => ${STEPS + 1}) AS at
             FROM generate_series(${from}, ${to}) k) e, generate_series(1, ${STEPS}) s`;
    await Promise.all([c.query(touches(0, half - 1)), c2.query(touches(half, ENROLLMENTS - 1))]);
    await c2.end();
    log(
      `  ${(ENROLLMENTS * STEPS).toLocaleString('en-US')} sent touches: ${seconds(performance.now() - t)} s`,
    );
    // Bounce odds per enrollment (one bounce ends it): 40% on d0-d2 (4% of sends), 8% elsewhere;
    // complaints 0.2%, replies 5%. Each at the enrollment's first touch.
    await step(
      'bounce, complaint and reply events',
      `INSERT INTO event (id, source, external_id, type, prospect_id, enrollment_id, payload, received_at, applied_at, outcome)
       SELECT gen_random_uuid(), 'bench', x.type || '-' || x.k, x.type, ${uuidOf('e', `x.k % ${PROSPECTS}`)}, ${uuidOf('f', 'x.k')},
              CASE x.type WHEN 'bounce' THEN '{"type":"bounce","bounce":{"hard":true,"status":"5.1.1"}}'::jsonb
                          ELSE jsonb_build_object('type', x.type) END,
              x.at, x.at, 'applied'
       FROM (
         SELECT k, now() - make_interval(days => (((k::bigint / ${DOMAINS}) * 7919) % ${HISTORY_DAYS})::int, hours => ${STEPS - 1}) AS at,
                CASE WHEN h < CASE WHEN k % ${DOMAINS} < 3 THEN 400 ELSE 80 END THEN 'bounce'
                     WHEN h >= 998 THEN 'complaint'
                     WHEN h >= 948 THEN 'reply' END AS type
         FROM generate_series(0, ${ENROLLMENTS - 1}) k,
              -- A spread per enrollment that covers 0-999 within each domain.
              LATERAL (SELECT ((k::bigint / ${DOMAINS}) * 2654435761 + (k % ${DOMAINS}) * 40503) % 1000 AS h) AS spread) x
       WHERE x.type IS NOT NULL`,
    );
    await step(
      'rollup from the same rows (one GROUP BY, as the backfill)',
      `INSERT INTO domain_daily_stat (domain_id, day, sends, bounces, complaints, replies, ended, completed)
       SELECT domain_id, day, SUM(sends), SUM(bounces), SUM(complaints), SUM(replies), 0, 0 FROM (
         SELECT m.domain_id, (t.sent_at AT TIME ZONE 'UTC')::date AS day, count(*) AS sends, 0 AS bounces, 0 AS complaints, 0 AS replies
           FROM touch t JOIN enrollment e ON e.id = t.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id
          WHERE t.status = 'sent' GROUP BY 1, 2
         UNION ALL
         SELECT m.domain_id, (ev.received_at AT TIME ZONE 'UTC')::date, 0,
                count(*) FILTER (WHERE ev.type = 'bounce'), count(*) FILTER (WHERE ev.type = 'complaint'),
                count(*) FILTER (WHERE ev.type = 'reply')
           FROM event ev JOIN enrollment e ON e.id = ev.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id GROUP BY 1, 2
       ) AS x GROUP BY domain_id, day`,
    );
    await step('VACUUM ANALYZE', 'VACUUM ANALYZE');
  } finally {
    await c.end();
  }
}

/** The plain scan: the window's sends and bounces per domain, from the touch and event tables. */
const SCAN_SQL = `
  WITH sends AS (
    SELECT m.domain_id, count(*)::int AS n FROM touch t
    JOIN enrollment e ON e.id = t.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id
    WHERE t.status = 'sent' AND t.sent_at >= ($1::date)::timestamp AT TIME ZONE 'UTC' GROUP BY m.domain_id),
  bounces AS (
    SELECT m.domain_id, count(*)::int AS n FROM event ev
    JOIN enrollment e ON e.id = ev.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id
    WHERE ev.type = 'bounce' AND ev.outcome = 'applied' AND ev.received_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'
    GROUP BY m.domain_id)
  SELECT d.domain, COALESCE(s.n, 0) AS sends, COALESCE(b.n, 0) AS bounces
  FROM sending_domain d LEFT JOIN sends s ON s.domain_id = d.id LEFT JOIN bounces b ON b.domain_id = d.id
  ORDER BY d.domain`;

/** An hour of new sends, as the triggers would have appended them since the last tick. */
const PENDING_SQL = `
  INSERT INTO domain_stat_delta (domain_id, day, sends)
  SELECT ('00000000-0000-4a00-8000-' || lpad(to_hex(g % ${DOMAINS}), 12, '0'))::uuid,
         (now() AT TIME ZONE 'UTC')::date, 1
  FROM generate_series(1, ${HOURLY_INCREMENTS}) g`;

const name = `touchbase_bench_dh_${randomBytes(4).toString('hex')}`;
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${name}`;
const machine = await machineInfo({ redisUrl, postgresUrl: serverUrl });
log(
  `domain-health tick bench: ${SENDS.toLocaleString('en-US')} sends on ${machine.cores} cores, ${machine.memoryGb} GB ` +
    `(${machine.cpuModel}); Node ${machine.node}, PostgreSQL ${machine.postgres}, Redis ${machine.redis}`,
);
await onServer(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
const redis = createRedis(redisUrl, 'producer');
const prefix = `tbbench-dh-${randomBytes(4).toString('hex')}`;
const db = createDatabase(dbUrl.toString(), { poolSize: 4 });
try {
  await applyMigrations({ databaseUrl: dbUrl.toString() });
  log('seeding:');
  const seedStarted = performance.now();
  await seed(dbUrl.toString());
  const seedSeconds = seconds(performance.now() - seedStarted);
  const counts = await db.pool.query(
    `SELECT (SELECT count(*) FROM touch)::bigint AS touches, (SELECT count(*) FROM event)::bigint AS events,
            (SELECT count(*) FROM domain_daily_stat)::int AS rollup_rows,
            pg_size_pretty(pg_total_relation_size('touch')) AS touch_size`,
  );
  const c = counts.rows[0];
  log(
    `  seeded in ${seedSeconds} s: ${c.touches} touches (${c.touch_size}), ${c.events} events, ${c.rollup_rows} rollup rows`,
  );

  const repos = createRepositories(db);
  const metrics = new Metrics({ defaultMetrics: false });
  const touchQueue = new TouchQueue(redis, prefix, createLogger({ name: 'bench', level: 'silent' }));
  const alertQueue = new AlertQueue(redis, prefix, createLogger({ name: 'bench', level: 'silent' }));
  const tick = () =>
    domainHealthTick({
      repos,
      touchQueue,
      alertQueue,
      channelNames: ['log'],
      logger: createLogger({ name: 'bench', level: 'silent' }),
      metrics,
      settings,
      holdInFlight: true,
      accountGuard: true,
      autoResumeAfterMs: 0,
      timeScale: 1,
      clock: () => new Date(),
    });
  const from = new Date(Date.now() - (settings.windowDays - 1) * 86_400_000).toISOString().slice(0, 10);

  // The first tick judges the seeded state (pauses the bouncing domains); its figures must equal the scan's.
  const scan = await db.pool.query<{ domain: string; sends: number; bounces: number }>(SCAN_SQL, [from]);
  const first = await tick();
  const judged = await db.pool.query<{ domain: string; sends: number; bounces: number }>(
    `SELECT domain, (figures->>'sends')::int AS sends, (figures->>'bounces')::int AS bounces FROM sending_domain ORDER BY domain`,
  );
  const same = JSON.stringify(scan.rows) === JSON.stringify(judged.rows);
  const windowSends = scan.rows.reduce((a, r) => a + r.sends, 0);
  log(
    `first tick: paused ${first.paused.length} (${first.paused.join(', ')}); window sends ${windowSends.toLocaleString('en-US')}; ` +
      `figures equal to the scan's: ${same}`,
  );
  if (!same) throw new Error('the rollup figures differ from the scan of the sends table');

  const tickMs: number[] = [];
  for (let i = 0; i < TICKS; i++) {
    await db.pool.query(PENDING_SQL);
    const t = performance.now();
    await tick();
    tickMs.push(performance.now() - t);
  }
  const scanMs: number[] = [];
  for (let i = 0; i < SCANS; i++) {
    const t = performance.now();
    await db.pool.query(SCAN_SQL, [from]);
    scanMs.push(performance.now() - t);
  }
  const ticks = summarize(tickMs, 1);
  const scans = summarize(scanMs, 1);
  const ratio = round((scans.p50 ?? Number.NaN) / (ticks.p50 ?? Number.NaN));
  await finishBench({
    name: 'domain-health-tick',
    figures: {
      sends: Number(c.touches),
      events: Number(c.events),
      domains: DOMAINS,
      rollupRows: c.rollup_rows,
      windowRollupRows: DOMAINS * settings.windowDays,
      pendingIncrementsPerTick: HOURLY_INCREMENTS,
      ticks: ticks.n,
      tickP50Ms: ticks.p50,
      tickMaxMs: ticks.max,
      seedSeconds,
    },
    baseline: { scans: scans.n, scanP50Ms: scans.p50, scanMaxMs: scans.max, touchTable: c.touch_size },
    ratio,
    checks: [
      check(`tick over ${SENDS.toLocaleString('en-US')} sends, max ms`, ticks.max ?? Number.NaN, '<', 1000),
      check('scan / tick (p50)', ratio ?? Number.NaN, '>', 1),
    ],
    notes: [
      `machine: ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, PostgreSQL ${machine.postgres}`,
      'tick = fold an hour of increments + read days x domains rollup rows + judge + save; scan = the foundation query over touch and event',
      'both warm (the scan after the tick runs, its table in the OS cache): the scan grows with the sends table, the tick does not',
    ],
  });
} finally {
  // Cleanup must reach the DROP below even when a close fails; the failure is still reported.
  await db.close().catch((err: unknown) => console.error('bench cleanup: closing the database failed', err));
  await deletePrefix(redis, prefix).catch((err: unknown) =>
    console.error(`bench cleanup: deleting Redis prefix ${prefix} failed`, err),
  );
  redis.disconnect();
  await onServer(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}
