import { Redis } from 'ioredis';
import { MailboxThrottle, countCapViolations } from '../packages/providers/src/throttle/mailbox-throttle.ts';
const redis = new Redis();
const prefix = `tbsim-${Date.now()}`;
const t = new MailboxThrottle(redis, { prefix, timeScale: 60, spacingJitter: 0.3 });
const limits = { perMinute: 5, perHour: 1000, perDay: 10000, minSpacingMs: 6000 };
let refusals = 0;
const grants: number[] = [];
await Promise.all(Array.from({ length: 20 }, async (_, i) => {
  for (;;) {
    const d = await t.take('m1', limits, `k${i}`);
    if (d.granted) { grants.push(d.at); return; }
    refusals++;
    await new Promise((r) => setTimeout(r, d.waitMs + Math.random() * 20));
  }
}));
const s = grants.sort((a,b)=>a-b);
console.log({ refusals, span: s.at(-1)! - s[0]!, violations: countCapViolations(s, t.windows(limits)) });
console.log(s.map((x) => Math.round(x - s[0]!)).join(' '));
redis.disconnect();
