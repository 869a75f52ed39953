import { describe, expect, it } from 'vitest';
import { cpuPerUnit, mergeCpuSplits, startCpuMeter } from '../../bench/lib/cpu-meter.js';

describe('bench CPU meter', () => {
  it.runIf(process.platform === 'linux')('charges the CPU this process spent to Node', async () => {
    const meter = await startCpuMeter();
    // Spin until this process has used 200 ms of CPU, however long that takes on a busy machine.
    const before = process.cpuUsage();
    let x = 0;
    for (;;) {
      for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
      const used = process.cpuUsage(before);
      if (used.user + used.system >= 200_000) break;
    }
    const split = await meter.stop();
    expect(x).toBeGreaterThan(0);
    expect(split).not.toBeNull();
    expect(split!.cpuSeconds.node).toBeGreaterThanOrEqual(0.2);
    expect(split!.machineBusy).toBeGreaterThan(0);
    expect(split!.machineBusy).toBeLessThanOrEqual(1);
  });

  it('gives microseconds per unit by part and the rate that fills every core', () => {
    const split = {
      seconds: 2,
      machineBusy: 0.5,
      machineSteal: 0.01,
      cpuSeconds: { node: 0.6, postgres: 0.3, redis: 0.1, other: 0 },
    };
    expect(cpuPerUnit('x', split, 1_000, 2)).toEqual({
      xCpuUsNode: 600,
      xCpuUsPostgres: 300,
      xCpuUsRedis: 100,
      xCpuUsOther: 0,
      xCpuUsTotal: 1_000,
      xCpuBoundPerSecond: 2_000,
      xMachineBusyPct: 50,
      xMachineStealPct: 1,
    });
    expect(cpuPerUnit('x', null, 1_000, 2)).toEqual({});
  });

  it('merges stretches: CPU summed, shares weighted by time', () => {
    const a = {
      seconds: 1,
      machineBusy: 1,
      machineSteal: 0,
      cpuSeconds: { node: 1, postgres: 0, redis: 0, other: 0 },
    };
    const b = {
      seconds: 3,
      machineBusy: 0.2,
      machineSteal: 0.1,
      cpuSeconds: { node: 0.5, postgres: 0.5, redis: 0, other: 0 },
    };
    const m = mergeCpuSplits([a, b])!;
    expect(m.seconds).toBe(4);
    expect(m.machineBusy).toBeCloseTo(0.4);
    expect(m.machineSteal).toBeCloseTo(0.075);
    expect(m.cpuSeconds).toEqual({ node: 1.5, postgres: 0.5, redis: 0, other: 0 });
    expect(mergeCpuSplits([a, null])).toBeNull();
  });
});
