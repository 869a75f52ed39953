import { expect } from 'vitest';
import { createMailbox, enroll, importProspects } from '../e2e/ingest-support.js';
import type { TestSystem } from '../support/test-system.js';

/** Two channels: connect; accepted → message on LinkedIn; not accepted within 7 days → e-mail. */
export const TWO_CHANNEL_GRAPH = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect' },
    { id: 'dm', action: 'linkedin_message', body: 'Thanks for connecting' },
    { id: 'mail', action: 'email', subject: 'Hello', body: 'By e-mail' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'dm', trigger: 'connection_accepted' },
    { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '7d' },
    { from: 'dm', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

/** The sandbox's LinkedIn members of these tests: half accept, about 75 ms after the invitation; none answers. */
export const TWO_CHANNEL_ENV = {
  SANDBOX_LINKEDIN_ACCEPT_RATE: '0.5',
  SANDBOX_LINKEDIN_ACCEPT_DELAY_MS: '21600000',
  SANDBOX_LINKEDIN_REPLY_RATE: '0',
};

/** A pool with a sandbox mailbox and a sandbox LinkedIn account (caps out of the way), the sequence, `n` enrollments. */
export async function enrollTwoChannel(
  sys: TestSystem,
  label: string,
  n: number,
): Promise<{ sequenceId: string; enrollmentIds: Set<string> }> {
  const mailboxId = await createMailbox(sys);
  const pool = await sys.api('POST', '/v1/mailbox-pools', { name: label, mailboxIds: [mailboxId] });
  const account = await sys.api('POST', '/v1/linkedin-accounts', {
    provider: 'sandbox',
    providerAccountId: `acc_${label}`,
    name: 'SDR',
    windowDays: [],
    invitationsPerDay: 200,
    invitationsPerWeek: 1_000,
    messagesPerDay: 500,
    perHour: 500,
    minSpacingMs: 0,
    poolIds: [pool.body.id],
  });
  expect(account.status).toBe(201);
  const seq = await sys.api('POST', '/v1/sequences', {
    name: label,
    graph: TWO_CHANNEL_GRAPH,
    mailboxPoolId: pool.body.id,
  });
  expect(seq.status).toBe(201);
  const people = Array.from({ length: n }, (_, i) => ({
    email: `${label}-${i}@graph-fault.example`,
    linkedinUrl: `https://www.linkedin.com/in/${label}-member-${i}/`,
  }));
  const ids = await importProspects(sys, people);
  const enrolled = await enroll(sys, seq.body.id, mailboxId, ids);
  expect(enrolled).toHaveLength(n);
  return { sequenceId: seq.body.id, enrollmentIds: new Set(enrolled.map((e) => e.id)) };
}

/**
 * Each enrollment took exactly one branch (the invitation, then the message or the
 * e-mail, never both), no LinkedIn action or e-mail went out twice, and the
 * provider's logs agree with the touch rows. Returns how many took each branch.
 */
export async function expectOneBranchEach(
  sys: TestSystem,
  sequenceId: string,
  ours: Set<string>,
): Promise<{ messaged: number; mailed: number }> {
  const n = ours.size;
  const actions = sys.sandbox.linkedin.actions().filter((a) => ours.has(a.idempotencyKey.slice(0, 36)));
  const mails = sys.sandbox.deliveries().filter((d) => ours.has(d.enrollmentId));
  const actionKeys = actions.map((a) => a.idempotencyKey);
  expect(new Set(actionKeys).size).toBe(actionKeys.length);
  expect(new Set(mails.map((m) => m.idempotencyKey)).size).toBe(mails.length);
  const { rows: touches } = await sys.rt.db.pool.query<{ eid: string; step: number }>(
    `SELECT t.enrollment_id AS eid, t.step FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
     WHERE e.sequence_id = $1`,
    [sequenceId],
  );
  const branches = new Map<string, number[]>();
  for (const t of touches) branches.set(t.eid, [...(branches.get(t.eid) ?? []), t.step].sort());
  for (const id of ours)
    expect([
      [1, 2],
      [1, 3],
    ]).toContainEqual(branches.get(id));
  const messaged = [...branches.values()].filter((b) => b[1] === 2).length;
  expect(actions.filter((a) => a.kind === 'invitation')).toHaveLength(n);
  expect(actions.filter((a) => a.kind === 'message')).toHaveLength(messaged);
  expect(mails).toHaveLength(n - messaged);
  return { messaged, mailed: n - messaged };
}

/** Waits until every enrollment of the sequence is exhausted (no member answers). */
export async function allExhausted(sys: TestSystem, sequenceId: string, n: number, timeoutMs: number) {
  const { waitFor } = await import('@touchbase/testing');
  return waitFor(
    'every enrollment exhausted',
    async () => {
      const { rows } = await sys.rt.db.pool.query<{ status: string; n: number }>(
        'SELECT status::text, count(*)::int AS n FROM enrollment WHERE sequence_id = $1 GROUP BY status',
        [sequenceId],
      );
      return rows.length === 1 && rows[0]!.status === 'exhausted' && rows[0]!.n === n ? rows : null;
    },
    { timeoutMs, intervalMs: 250 },
  );
}
