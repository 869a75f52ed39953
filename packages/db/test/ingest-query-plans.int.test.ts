import type { CanonicalEvent } from '@touchbase/core';
import { type ApplyOptions, recordAndApplyEvent } from '@touchbase/use-cases';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repositories } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture, testEvent } from './support/repository-fixture.js';

/** Tables that grow with the workspace: a webhook's statements must reach them by an index. */
const BIG_TABLES = ['prospect', 'prospect_identity', 'enrollment', 'event'];
const COMPANIES = 400;
const PER_COMPANY = 10;
const PAST_EVENTS = 20_000;

type Statement = { text: string; values: unknown[] };
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

/** Every node of a plan with a sequential scan of one of the big tables. */
function seqScansOfBigTables(node: PlanNode): string[] {
  const here =
    node['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(node['Relation Name'] ?? '')
      ? [node['Relation Name']!]
      : [];
  return [...here, ...(node.Plans ?? []).flatMap(seqScansOfBigTables)];
}

/**
 * The statements a webhook runs, planned on tables of a realistic size: every one
 * reaches the prospects, identities, enrollments and events by an index, so
 * ingest costs the same per webhook however large those tables grow (the webhook
 * storm slowed from 388/s to under 200/s when each reply read its whole company).
 * Plans, not timings: dropping an index or losing a bound fails here on any machine.
 */
describe('ingest statements use indexes on populated tables (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let repos: Repositories;
  let captured: Statement[] | null = null;
  const people: { prospectId: string; email: string; enrollmentId: string }[] = [];

  beforeAll(async () => {
    fixture = await repositoryFixture('ingest_query_plans', 'sdr@plans.example');
    repos = fixture.repos;
    // Records what every pooled connection runs while `captured` is set (Prisma's too).
    const patched = new WeakSet<pg.PoolClient>();
    fixture.db.pool.on('acquire', (client: pg.PoolClient) => {
      if (patched.has(client)) return;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const [first, second] = args;
        const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
        const values = Array.isArray(second) ? second : ((first as { values?: unknown[] })?.values ?? []);
        if (captured && text) captured.push({ text, values });
        return query(...args);
      };
    });
    const emails = Array.from({ length: COMPANIES * PER_COMPANY }, (_, i) => {
      return `p${i}@company${i % COMPANIES}.example`;
    });
    for (let i = 0; i < emails.length; i += 1_000) {
      const prospects = await repos.prospects.upsertMany(
        emails.slice(i, i + 1_000).map((email) => ({ email })),
      );
      const r = await repos.enrollments.enroll({
        sequenceId: fixture.sequenceId,
        sequenceVersionId: fixture.versionId,
        mailboxId: fixture.mailboxId,
        prospectIds: prospects.map((p) => p.id),
        firstTouchAt: () => new Date(Date.now() + 86_400_000),
      });
      const byProspect = new Map(r.enrolled.map((e) => [e.prospectId, e.id]));
      for (const p of prospects)
        people.push({ prospectId: p.id, email: p.email, enrollmentId: byProspect.get(p.id)! });
    }
    // A log of past webhooks about these people, as a workspace that has run for a while has.
    await fixture.db.pool.query(
      `INSERT INTO event (id, source, external_id, type, payload, prospect_id, applied_at, outcome)
       SELECT gen_random_uuid(), 'sandbox', 'evt_past_' || g, 'opened', '{}'::jsonb, p.id, now(), 'no_effect'
       FROM generate_series(1, $1::int) g
       JOIN (SELECT id, (row_number() OVER (ORDER BY id))::int - 1 AS n FROM prospect) p ON p.n = g % $2::int`,
      [PAST_EVENTS, people.length],
    );
    await fixture.db.pool.query('ANALYZE');
  }, 120_000);
  afterAll(async () => {
    await fixture?.close();
  });

  const event = testEvent;

  /** Applies the events as ingest does and returns every statement they ran. */
  async function statementsOf(events: CanonicalEvent[], opts: ApplyOptions): Promise<Statement[]> {
    captured = [];
    try {
      for (const e of events) await recordAndApplyEvent(repos.events, e, opts);
      return captured;
    } finally {
      captured = null;
    }
  }

  async function seqScans(statements: Statement[]) {
    const found: { statement: string; tables: string[] }[] = [];
    let planned = 0;
    for (const s of statements) {
      if (!/^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b/i.test(s.text)) continue;
      const { rows } = await fixture.db.pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${s.text}`,
        s.values,
      );
      planned++;
      const tables = seqScansOfBigTables(rows[0]!['QUERY PLAN'][0]!.Plan);
      if (tables.length > 0) found.push({ statement: s.text.replace(/\s+/g, ' ').slice(0, 200), tables });
    }
    return { planned, found };
  }

  /** A reply, a hard bounce and an out-of-office from known people (by address), an unknown reply, and a redelivery. */
  function webhooks(from: (typeof people)[number][]) {
    const reply = event({ type: 'reply', email: from[0]!.email, classification: 'interested' });
    return [
      reply,
      { ...reply },
      event({ type: 'reply', email: from[1]!.email, classification: 'not_interested' }),
      event({ type: 'bounce', email: from[2]!.email, bounce: { hard: true, status: '5.1.1' } }),
      event({ type: 'out_of_office', email: from[3]!.email, returnDate: '2030-01-07' }),
      event({ type: 'opened', enrollmentId: from[4]!.enrollmentId }),
      // A decline naming our enrollment: the batched stop, its policies checked in the statement.
      event({ type: 'reply', enrollmentId: from[4]!.enrollmentId, classification: 'not_interested' }),
      event({ type: 'reply', email: 'stranger@nowhere.example' }),
    ];
  }
  const liveStatus = async (enrollmentIds: string[]) =>
    (
      await fixture.db.pool.query<{ status: string }>(
        'SELECT status::text FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id',
        [enrollmentIds],
      )
    ).rows.map((r) => r.status);

  it('with company-level stop off (INGEST_COMPANY_STOP=false): no sequential scan of a big table, colleagues untouched', async () => {
    // Company 0 (p0, p400, p800, ...): p0 replies interested, which the default company policy would pause.
    const from = [0, 1, 2, 3, 4].map((c) => people[c]!);
    const statements = await statementsOf(webhooks(from), { replyActions: true, companyStops: false });
    const { planned, found } = await seqScans(statements);
    expect(planned).toBeGreaterThan(10);
    expect(found).toEqual([]);
    // Company-level stop off: the reply stops only the person; their colleagues go on.
    const colleagues = people.filter((p, i) => i % COMPANIES === 0 && p !== from[0]);
    expect(await liveStatus(colleagues.map((c) => c.enrollmentId))).toEqual(colleagues.map(() => 'active'));
  });

  it('as ingest runs by default (reply actions and company-level stop on): colleagues are found by index too, and paused', async () => {
    const from = [5, 6, 7, 8, 9].map((c) => people[c]!);
    const statements = await statementsOf(webhooks(from), {
      replyActions: true,
      companyStops: true,
      now: new Date(),
    });
    const { planned, found } = await seqScans(statements);
    expect(planned).toBeGreaterThan(10);
    expect(found).toEqual([]);
    const colleagues = people.filter((p, i) => i % COMPANIES === 5 && p !== from[0]);
    expect(colleagues).toHaveLength(PER_COMPANY - 1);
    expect(await liveStatus(colleagues.map((c) => c.enrollmentId))).toEqual(colleagues.map(() => 'paused'));
  });

  it("the domain rollup trigger's once-per-enrollment read reaches event by an index (its generic plan)", async () => {
    // The statement as the trigger function holds it, NEW's fields as parameters: a
    // PL/pgSQL statement keeps a generic plan, so this is the plan every reply runs.
    const { rows } = await fixture.db.pool.query<{ src: string }>(
      `SELECT prosrc AS src FROM pg_proc WHERE proname = 'touchbase_event_rollup'`,
    );
    const read = /SELECT 1 FROM "event" e[\s\S]*?'false'\s+OR e\."outcome" = 'applied'\)/.exec(
      rows[0]!.src,
    )?.[0];
    expect(read).toBeDefined();
    const text = read!
      .replaceAll('NEW."enrollment_id"', '$1::uuid')
      .replaceAll('NEW."type"', '$2::text')
      .replaceAll('NEW."seq"', '$3::bigint');
    const client = await fixture.db.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE counted_once(uuid, text, bigint) AS ${text}`);
      const plan = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) EXECUTE counted_once('${people[0]!.enrollmentId}', 'reply', 1)`,
      );
      expect(seqScansOfBigTables(plan.rows[0]!['QUERY PLAN'][0].Plan)).toEqual([]);
    } finally {
      await client.query('DEALLOCATE counted_once; RESET plan_cache_mode');
      client.release();
    }
  });

  it('with company-level stop on, a reply no sequence acts on (a decline, by the defaults) reads no colleague', async () => {
    const from = people[10]!;
    const statements = await statementsOf(
      [event({ type: 'reply', email: from.email, classification: 'not_interested' })],
      { replyActions: true, companyStops: true, now: new Date() },
    );
    expect(statements.some((s) => /company_domain = me\.company_domain/.test(s.text))).toBe(false);
    const colleagues = people.filter((p, i) => i % COMPANIES === 10 && p !== from);
    expect(await liveStatus(colleagues.map((c) => c.enrollmentId))).toEqual(colleagues.map(() => 'active'));
  });
});
