// A stand-in for one sender replica: takes tokens for the mailboxes named in the
// environment with a few touches in flight, waiting as told when refused, and
// prints each grant as a JSON line. Run as its own process by throttle.int.test.ts.
import { Redis } from 'ioredis';
import { type MailboxLimits, MailboxThrottle } from '../../src/throttle/mailbox-throttle.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = String(process.env.PREFIX);
const mailboxes = String(process.env.MAILBOXES).split(',');
const limits = JSON.parse(String(process.env.LIMITS)) as Record<string, MailboxLimits>;
const target = Number(process.env.TARGET);
const inFlight = Number(process.env.IN_FLIGHT ?? 4);
const throttle = new MailboxThrottle(redis, {
  prefix,
  timeScale: Number(process.env.TIME_SCALE ?? 1),
  spacingJitter: 0.3,
});

let seq = 0;
async function touchLoop(mailboxId: string): Promise<void> {
  const counter = `${prefix}:test:granted:${mailboxId}`;
  for (;;) {
    if (Number(await redis.get(counter)) >= target) return;
    const member = `${process.pid}-${seq++}`;
    for (;;) {
      const d = await throttle.take(mailboxId, limits[mailboxId] as MailboxLimits, member);
      if (d.granted) {
        process.stdout.write(`${JSON.stringify({ mailboxId, at: d.at, pid: process.pid })}\n`);
        await redis.incr(counter);
        break;
      }
      // What the sender does with BullMQ's delayed jobs, done in-process here.
      await new Promise((r) => setTimeout(r, d.waitMs));
    }
  }
}

await Promise.all(mailboxes.flatMap((m) => Array.from({ length: inFlight }, () => touchLoop(m))));
redis.disconnect();
