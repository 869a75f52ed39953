import { randomUUID } from 'node:crypto';
import { createDatabase, createRepositories } from '@touchbase/db';
import { createTestDatabase } from '@touchbase/testing';

const tdb = await createTestDatabase('probe_intake');
const db = createDatabase(tdb.url, { poolSize: 20 });
const repos = createRepositories(db);
const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@probe.example' });
const sequence = await repos.sequences.create({ name: 'b', steps: [{ channel: 'email', subject: 'H', body: 'T', wait: '3d' }] });
await db.pool.query(`INSERT INTO prospect (id, email) SELECT gen_random_uuid(), 'p-' || g || '@x.example' FROM generate_series(1, 20000) g`);
await db.pool.query(`INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at)
 SELECT gen_random_uuid(), id, $1, $2, $3, 'active', 1, now() + interval '1 day' FROM prospect`, [sequence.id, sequence.version.id, mailbox.id]);
await db.pool.query('ANALYZE');
const { rows: enr } = await db.pool.query<{ id: string }>('SELECT id FROM enrollment');
async function run(label: string, n: number, conc: number, mk: (i: number) => any) {
  let i = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: conc }, async () => { while (i < n) { const k = i++; await repos.events.recordAndApply(mk(k)); } }));
  const s = (performance.now() - t0) / 1000;
  console.log(label, Math.round(n / s), '/s');
}
const opened = (i: number) => ({ source: 'http', externalId: `x${randomUUID()}`, type: 'opened', occurredAt: new Date(), enrollmentId: enr[i % enr.length]!.id, data: {}, channel: 'email' });
const reply = (i: number) => ({ source: 'http', externalId: `r${randomUUID()}`, type: 'reply', occurredAt: new Date(), enrollmentId: enr[i]!.id, channel: 'email', data: {}, classification: 'not_interested' });
await run('warm', 1000, 8, opened);
const pg = (await import('pg')).default; const admin = new pg.Client(process.env.TEST_DATABASE_SERVER_URL); await admin.connect(); await admin.query('select pg_stat_statements_reset()');
await run('opened c32', 8000, 32, opened);
await run('opened c8', 8000, 8, opened);
await run('reply c8', 3000, 8, (i) => reply(i));
await run('reply c32', 3000, 32, (i) => reply(3000 + i));
const st = await admin.query(`select calls, round(total_exec_time::numeric,1) ms, round((total_exec_time/calls)::numeric*1000,1) us_per, round(total_plan_time::numeric,1) plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) q from pg_stat_statements order by total_exec_time desc limit 25`); console.table(st.rows); await admin.end();
await db.close();
console.log(tdb.url);
