import type { Run } from './dispatch-run.js';
import { round } from './index.js';
import { percentile } from './percentile.js';

/** What one Throttle implementation did in a dispatch bench run. */
export type ThrottleSide = {
  /** The run with caps that bind, and its violations (grant log, spacing, receipt times). */
  capped: Run;
  violations: { violations: number; spacingViolations: number; receiptViolations: number };
  /** Bursts with caps open (`burstTouches` each) and paced streams, one per round. */
  bursts: Run[];
  streams: Run[];
};

/**
 * The Lua buckets and Bottleneck side by side, as flat figures (`lua*`, `bottleneck*`):
 * burst touches/s, p99 lag added over buckets off, violations, capped rate and lag,
 * and Redis CPU per touch in the bursts.
 */
export function throttleSideBySide(
  lua: ThrottleSide,
  bottleneck: ThrottleSide,
  off: { bursts: Run[]; streams: Run[] },
  burstTouches: number,
) {
  const rate = (runs: Run[]) => (runs.length * burstTouches) / runs.reduce((a, x) => a + x.seconds, 0);
  const lagP99 = (runs: Run[]) =>
    percentile(
      runs.flatMap((x) => x.lags).sort((a, b) => a - b),
      99,
      true,
    );
  const redisUs = (runs: Run[]) =>
    round(
      (runs.reduce((a, x) => a + (x.cpu?.cpuSeconds.redis ?? 0), 0) * 1e6) / (runs.length * burstTouches),
    );
  const offLag = lagP99(off.streams);
  return {
    luaBurstTouchesPerSecond: round(rate(lua.bursts)),
    bottleneckBurstTouchesPerSecond: round(rate(bottleneck.bursts)),
    bottleneckOverLua: round(rate(bottleneck.bursts) / rate(lua.bursts)),
    luaLagP99AddedMs: round(lagP99(lua.streams) - offLag),
    bottleneckLagP99AddedMs: round(lagP99(bottleneck.streams) - offLag),
    luaCapViolations: lua.violations.violations + lua.violations.spacingViolations,
    bottleneckCapViolations: bottleneck.violations.violations + bottleneck.violations.spacingViolations,
    luaCapViolationsByReceiptTime: lua.violations.receiptViolations,
    bottleneckCapViolationsByReceiptTime: bottleneck.violations.receiptViolations,
    luaCappedTouchesPerSecond: round(lua.capped.perSecond),
    bottleneckCappedTouchesPerSecond: round(bottleneck.capped.perSecond),
    luaCappedLagP99Ms: round(lua.capped.lagP99),
    bottleneckCappedLagP99Ms: round(bottleneck.capped.lagP99),
    luaRedisCpuUsPerTouch: redisUs(lua.bursts),
    bottleneckRedisCpuUsPerTouch: redisUs(bottleneck.bursts),
    offRedisCpuUsPerTouch: redisUs(off.bursts),
  };
}
