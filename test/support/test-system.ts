import { loadRuntimeConfig } from '@touchbase/runtime';
import { createTestDatabase, createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { type System, startSystem } from '../../cli/src/commands/start.command.js';

export type TestSystem = System & {
  env: Record<string, string>;
  /** Calls the API; returns status and parsed JSON. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
};

/**
 * The whole system in this process on a database and Redis prefix of its own,
 * every port chosen free, time compressed. `stop()` shuts down and drops both.
 */
export async function startTestSystem(
  label: string,
  env: Record<string, string> = {},
  opts: {
    withoutSender?: boolean;
    pacingMs?: number;
    /** Another Redis server than REDIS_URL (a bench's private one). */
    redisUrl?: string;
    /** Rewrites the database URL the services use (e.g. through a proxy the test can cut). */
    databaseUrl?: (direct: string) => string;
  } = {},
): Promise<TestSystem> {
  const db = await createTestDatabase(label);
  const redis = await createTestRedisPrefix(label, opts.redisUrl);
  const fullEnv: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl ? opts.databaseUrl(db.url) : db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    API_PORT: '0',
    INGEST_PORT: '0',
    SANDBOX_PORT: '0',
    // One day of a sequence lasts 300 ms.
    TIME_SCALE: '288000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SANDBOX_REPLY_RATE: '0',
    SANDBOX_BOUNCE_RATE: '0',
    SANDBOX_OOO_RATE: '0',
    SCHEDULER_RECONCILE_INTERVAL_MS: '3600000',
    // No campaign pacing unless a test asks: first touches go at once.
    SCHEDULER_PACING_MS: '0',
    DOMAIN_HEALTH_INTERVAL_MS: '3600000',
    DATABASE_POOL_SIZE: '20',
    ...env,
  };
  const system = await startSystem(loadRuntimeConfig(fullEnv), {
    ...(opts.withoutSender ? { withoutSender: true } : {}),
    ...(opts.pacingMs !== undefined ? { pacingMs: opts.pacingMs } : {}),
  });
  return {
    ...system,
    env: fullEnv,
    async api(method, path, body) {
      const res = await fetch(system.apiUrl + path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await system.rt.shutdown.run();
      await redis.cleanup();
      await db.drop();
    },
  };
}

/** A sequence of `n` email steps, each waiting `wait` before the next. */
export function steps(n: number, wait = '1d') {
  return Array.from({ length: n }, (_, i) => ({
    subject: i === 0 ? 'Hello {{firstName|there}}' : 'unused',
    body: `Touch ${i + 1} for {{firstName|there}} at {{company|your company}}`,
    wait,
  }));
}

/** A mailbox's caps, as `POST /v1/mailboxes` takes them. */
export type MailboxCaps = { perMinute: number; perHour: number; perDay: number; minSpacingMs?: number };

/**
 * Creates a sandbox mailbox (sending every day, with `caps` when given, else the
 * defaults), a sequence and prospects; returns their ids.
 */
export async function seed(
  sys: TestSystem,
  opts: { steps: number; prospects: string[]; wait?: string; caps?: MailboxCaps },
) {
  const mailbox = await sys.api('POST', '/v1/mailboxes', {
    provider: 'sandbox',
    address: `sdr-${Math.random().toString(36).slice(2)}@sender.example`,
    windowDays: [],
    ...opts.caps,
  });
  if (mailbox.status !== 201) throw new Error(`mailbox: ${JSON.stringify(mailbox.body)}`);
  const sequence = await sys.api('POST', '/v1/sequences', {
    name: 'test',
    steps: steps(opts.steps, opts.wait),
  });
  if (sequence.status !== 201) throw new Error(`sequence: ${JSON.stringify(sequence.body)}`);
  const prospects = await sys.api('POST', '/v1/prospects', {
    prospects: opts.prospects.map((email, i) => ({ email, firstName: `P${i}`, company: 'Acme' })),
  });
  if (prospects.status !== 200) throw new Error(`prospects: ${JSON.stringify(prospects.body)}`);
  return {
    mailboxId: mailbox.body.id as string,
    sequenceId: sequence.body.id as string,
    prospectIds: (prospects.body.prospects as { id: string }[]).map((p) => p.id),
  };
}

/** Enrolls every prospect of `ids` in the sequence on the mailbox; fails unless each is enrolled. */
export async function enrollAll(
  sys: TestSystem,
  ids: { sequenceId: string; mailboxId: string; prospectIds: string[] },
): Promise<string[]> {
  const res = await sys.api('POST', '/v1/enrollments', {
    sequenceId: ids.sequenceId,
    mailboxId: ids.mailboxId,
    prospectIds: ids.prospectIds,
  });
  const enrolled = (res.body?.enrolled ?? []) as { id: string }[];
  if (enrolled.length !== ids.prospectIds.length) throw new Error(`enrollments: ${JSON.stringify(res.body)}`);
  return enrolled.map((e) => e.id);
}

/**
 * The environment of a sender process a test kills with SIGKILL: the system's, the
 * sandbox's URL, 50 slots, and a job lock of 2 s checked for stalls every second, so a
 * killed sender's jobs are taken over within seconds.
 */
export function killableSenderEnv(sys: TestSystem): Record<string, string> {
  return {
    ...sys.env,
    SANDBOX_URL: sys.sandbox.url,
    SENDER_CONCURRENCY: '50',
    SENDER_LOCK_DURATION_MS: '2000',
    SENDER_STALLED_INTERVAL_MS: '1000',
  };
}

/**
 * Waits until `count` enrollments of a sequence have ended (by default replied,
 * bounced or exhausted); returns how many are in each status.
 */
export async function waitForEnded(
  sys: TestSystem,
  sequenceId: string,
  count: number,
  opts: { timeoutMs: number; ended?: string[] },
): Promise<Record<string, number>> {
  const ended = opts.ended ?? ['replied', 'bounced', 'exhausted'];
  return waitFor(
    'every enrollment to end',
    async () => {
      const { rows } = await sys.rt.db.pool.query<{ status: string; n: number }>(
        'SELECT status::text, count(*)::int AS n FROM enrollment WHERE sequence_id = $1 GROUP BY status',
        [sequenceId],
      );
      const done = rows.filter((r) => ended.includes(r.status)).reduce((a, r) => a + r.n, 0);
      return done === count ? Object.fromEntries(rows.map((r) => [r.status, r.n])) : null;
    },
    { timeoutMs: opts.timeoutMs, intervalMs: 250 },
  );
}
