import { touchKey } from '@touchbase/core';
import { MailboxThrottle } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, steps, type TestSystem } from '../support/test-system.js';
import { expectRecordedUnknownAtOnce } from './in-doubt-support.js';

// Real time: the mailbox's next day is a day away, so a touch that waits for it never settles here.
const CAPS = { perMinute: 1, perHour: 1, perDay: 1, minSpacingMs: 0 };
const HOUR_MS = 3_600_000;

/**
 * A sender killed after it handed a touch to the provider leaves the touch 'sending'
 * (in doubt) and its token spent; the re-run job asks for a new token as another
 * throttle member. On a mailbox whose day cap that dead grant used up, the token is
 * refused: the touch is looked up at the provider at once instead of waiting a day in
 * doubt. Delivered, it is recorded as sent (the dead attempt's grant paid for it); not
 * delivered, its claim is released and it waits for a token like any other touch. On a
 * provider that does not deduplicate by key (SMTP, which cannot say what it took), it
 * is recorded unknown at once, as its claim would, and never resent.
 */
describe('a touch in doubt on a mailbox whose day cap is used up (whole system)', () => {
  let sys: TestSystem;
  let throttle: MailboxThrottle;
  let n = 0;
  // The SMTP provider's server: every mail it is handed, by recipient.
  const mailed: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      mailed.push(...session.envelope.rcptTo.map((r) => r.address));
      stream.on('end', () => cb());
      stream.resume();
    },
  });

  beforeAll(async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = String((smtp.server.address() as { port: number }).port);
    sys = await startTestSystem(
      'sender_in_doubt_capped',
      { TIME_SCALE: '1', SMTP_HOST: '127.0.0.1', SMTP_PORT: smtpPort, SMTP_SECURE: 'false' },
      { pacingMs: 0 },
    );
    throttle = new MailboxThrottle(sys.rt.redis.producer, {
      prefix: sys.env.REDIS_PREFIX as string,
      timeScale: 1,
    });
  });
  afterAll(async () => {
    await sys?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  /**
   * What a sender killed mid-send leaves: an enrollment due now whose touch is claimed
   * ('sending'), the day's only token granted to the dead attempt's member, and (when
   * `delivered`) the sandbox holding the send under the touch's key. No job yet.
   */
  async function leftInDoubt(delivered: boolean, provider = 'sandbox') {
    const mailbox = await sys.api('POST', '/v1/mailboxes', {
      provider,
      address: `sdr-${++n}@in-doubt.example`,
      windowDays: [],
      windowStart: '00:00',
      windowEnd: '23:59',
      ...CAPS,
    });
    expect(mailbox.status).toBe(201);
    const sequence = await sys.api('POST', '/v1/sequences', { name: `in doubt ${n}`, steps: steps(2) });
    expect(sequence.status).toBe(201);
    const email = `p${n}@in-doubt.example`;
    const prospects = await sys.api('POST', '/v1/prospects', { prospects: [{ email }] });
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: sequence.body.id,
      sequenceVersionId: sequence.body.version.id,
      mailboxId: mailbox.body.id,
      prospectIds: [prospects.body.prospects[0].id],
      firstTouchAt: () => new Date(),
    });
    const enrollmentId = enrolled[0]!.id;
    const key = touchKey(enrollmentId, 1);
    expect((await sys.rt.repos.touches.claim(enrollmentId, 1, key, email)).kind).toBe('claimed');
    expect((await throttle.take(mailbox.body.id, CAPS, `${key}.dead`)).granted).toBe(true);
    if (delivered) {
      const res = await fetch(`${sys.sandbox.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({
          to: email,
          subject: 'Hello',
          body: 'Touch 1',
          metadata: { enrollmentId, step: 1 },
        }),
      });
      expect(res.status).toBe(200);
    }
    await sys.rt.touchQueue.schedule([{ enrollmentId, step: 1, dueAt: new Date() }]);
    return { enrollmentId, key, mailboxId: mailbox.body.id as string };
  }

  const deliveriesOf = (key: string) => sys.sandbox.deliveries().filter((d) => d.idempotencyKey === key);

  it('delivered before the sender died: recorded as sent at once, not sent again, no second grant', async () => {
    const { enrollmentId, key, mailboxId } = await leftInDoubt(true);
    await waitFor(
      'the touch in doubt to be recorded as sent',
      async () => (await sys.rt.repos.touches.statusOf(enrollmentId, 1)) === 'sent',
      { timeoutMs: 20_000 },
    );
    const [delivery] = deliveriesOf(key);
    const { rows } = await sys.rt.db.pool.query<{ provider_message_id: string }>(
      'SELECT provider_message_id FROM touch WHERE enrollment_id = $1 AND step = 1',
      [enrollmentId],
    );
    expect(rows[0]?.provider_message_id).toBe(delivery?.messageId);
    // The enrollment moved on to its next step, a day away.
    const enrollment = await sys.rt.db.pool.query(
      'SELECT status::text, current_step AS step FROM enrollment WHERE id = $1',
      [enrollmentId],
    );
    expect(enrollment.rows[0]).toEqual({ status: 'active', step: 2 });
    expect(deliveriesOf(key)).toHaveLength(1);
    expect(await throttle.grants(mailboxId)).toHaveLength(1);
  });

  it('not delivered: the claim is released and the touch waits for the next token, unsent', async () => {
    const { enrollmentId, key, mailboxId } = await leftInDoubt(false);
    await waitFor(
      'the claim in doubt to be released',
      async () => (await sys.rt.repos.touches.statusOf(enrollmentId, 1)) === null,
      { timeoutMs: 20_000 },
    );
    const due = await waitFor('the job to wait for a token', () => sys.rt.touchQueue.delayedUntil(key));
    // Waiting for the mailbox's next day (an hour at the least), not retried at once.
    expect(due).toBeGreaterThan(Date.now() + HOUR_MS);
    expect(deliveriesOf(key)).toHaveLength(0);
    expect(await throttle.grants(mailboxId)).toHaveLength(1);
  });

  it('a provider that does not deduplicate: recorded unknown at once, not delayed a day, not sent, no second grant', async () => {
    const { enrollmentId, mailboxId } = await leftInDoubt(false, 'smtp');
    await expectRecordedUnknownAtOnce(sys, enrollmentId);
    expect(mailed).not.toContain(`p${n}@in-doubt.example`);
    expect(await throttle.grants(mailboxId)).toHaveLength(1);
  });
});
