import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import type { Database, Repositories } from '@touchbase/db';
import type pg from 'pg';
import { expect } from 'vitest';
import { type RetentionReport, runRetention } from '../../src/commands/retention.command.js';

/** One prospect enrolled in the retention tests' sequence, and the message ids of its sent touches by step. */
export type Person = { enrollmentId: string; prospectId: string; email: string; msg: Record<number, string> };

/**
 * A two-step e-mail sequence on a sandbox mailbox (`sdr@{name}.example`) with one
 * prospect (`{key}@people.example`) enrolled for each key; returns the sequence's id
 * and the people by key.
 */
export async function enrollPeople<K extends string>(
  repos: Repositories,
  name: string,
  keys: readonly K[],
): Promise<{ sequenceId: string; people: Record<K, Person> }> {
  const seq = await repos.sequences.create({
    name,
    steps: [
      { channel: 'email', subject: 'a', body: 'b', wait: '1d' },
      { channel: 'email', subject: 'a', body: 'c', wait: '1d' },
    ],
  });
  const mailboxId = (await repos.mailboxes.create({ provider: 'sandbox', address: `sdr@${name}.example` }))
    .id;
  const people = {} as Record<K, Person>;
  for (const key of keys) {
    const [p] = await repos.prospects.upsertMany([{ email: `${key}@people.example` }]);
    const r = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId,
      prospectIds: [p!.id],
      firstTouchAt: () => new Date(),
    });
    people[key] = { enrollmentId: r.enrolled[0]!.id, prospectId: p!.id, email: p!.email, msg: {} };
  }
  return { sequenceId: seq.id, people };
}

/**
 * A touch of `p` at `step`, as the sender's repositories record it: claimed, then (unless
 * `record` is false: a touch still being sent) recorded sent with a fresh message id.
 */
export async function sendTouch(repos: Repositories, p: Person, step: number, record = true): Promise<void> {
  expect(
    (await repos.touches.claim(p.enrollmentId, step, touchKey(p.enrollmentId, step), p.email)).kind,
  ).toBe('claimed');
  if (!record) return;
  p.msg[step] = `msg-${randomUUID()}`;
  await repos.touches.recordSent({
    enrollmentId: p.enrollmentId,
    step,
    messageId: p.msg[step] as string,
    conversationId: `conv-${p.enrollmentId}`,
    nextTouchAt: new Date(Date.now() + 86_400_000),
  });
}

/**
 * Runs `statements` in one transaction of its own session with the triggers lifted
 * (`session_replication_role = replica`): arrival times are immutable, guarded by
 * triggers, and the tests age what they recorded as if it had happened long ago.
 */
export async function withTriggersLifted(
  db: Database,
  statements: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await statements(client);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** Every funnel view, for the whole base and for the sequence: what retention must leave as it was. */
export async function funnelViews(repos: Repositories, sequenceId: string) {
  return Promise.all(
    (['sequence', 'step', 'variant', 'mailbox', 'domain'] as const).flatMap((v) => [
      repos.funnel.view(v, {}),
      repos.funnel.view(v, { sequenceId }),
    ]),
  );
}

/** `touchbase retention` with `args` on the database at `databaseUrl`: exit code, printed lines, errors and report. */
export async function runRetentionCommand(databaseUrl: string, ...args: string[]) {
  let report: RetentionReport | undefined;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRetention(
    args,
    { DATABASE_URL: databaseUrl },
    { print: (l) => out.push(l), error: (l) => err.push(l) },
    {
      onReport: (r) => {
        report = r;
      },
    },
  );
  return { code, out, err, report };
}
