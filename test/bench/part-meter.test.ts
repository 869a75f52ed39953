import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  mergePartSplits,
  partsPerUnit,
  postgresBackends,
  redisServerPid,
  startPartMeter,
  statTicks,
  ticksBetween,
  withApplicationName,
} from '../../bench/lib/part-meter.js';

describe('bench part meter', () => {
  it('reads utime + stime from a /proc stat line, whatever the command name holds', () => {
    const fields = 'S 1 1 1 0 -1 4194560 100 0 0 0 250 40 0 0 20 0 9 0 100 0 0';
    expect(statTicks(`123 (node) ${fields}`)).toBe(290);
    expect(statTicks(`123 (a (b) c) ${fields}`)).toBe(290);
    expect(statTicks('garbage')).toBeNull();
  });

  it('counts ticks of the processes alive at the end, all of them for those that started since', () => {
    const before = new Map([
      [1, 100],
      [2, 50],
    ]);
    const after = new Map([
      [1, 130],
      [3, 20],
    ]);
    expect(ticksBetween(before, after)).toBe(50);
  });

  it('gives µs and machine units per unit of work by part', () => {
    const split = {
      seconds: 2,
      machineBusy: 0.5,
      machineSteal: 0.01,
      cpuSeconds: { ingest: 0.2, postgres: 0.1, redis: 0 },
    };
    expect(partsPerUnit('accept', split, 1_000, 25)).toEqual({
      acceptCpuUsIngest: 200,
      acceptCpuUsPostgres: 100,
      acceptCpuUsRedis: 0,
      acceptCpuUsTotal: 300,
      acceptUnitsIngest: 8,
      acceptUnitsPostgres: 4,
      acceptUnitsRedis: 0,
      acceptUnitsTotal: 12,
      acceptMachineBusyPct: 50,
      acceptMachineStealPct: 1,
    });
    expect(partsPerUnit('x', split, 1_000)).not.toHaveProperty('xUnitsTotal');
    expect(partsPerUnit('x', null, 1_000, 25)).toEqual({});
  });

  it('merges stretches by part', () => {
    const a = { seconds: 1, machineBusy: 1, machineSteal: 0, cpuSeconds: { sender: 1, redis: 0.5 } };
    const b = { seconds: 3, machineBusy: 0.2, machineSteal: 0.1, cpuSeconds: { sender: 0.5, redis: 0.5 } };
    const m = mergePartSplits([a, b])!;
    expect(m.cpuSeconds).toEqual({ sender: 1.5, redis: 1 });
    expect(m.machineBusy).toBeCloseTo(0.4);
    expect(mergePartSplits([a, null])).toBeNull();
  });

  it('names the PostgreSQL connections of a URL', () => {
    expect(withApplicationName('postgresql://postgres@127.0.0.1:5432/db', 'tb')).toBe(
      'postgresql://postgres@127.0.0.1:5432/db?application_name=tb',
    );
  });

  it.runIf(process.platform === 'linux')('charges a process the CPU it spent', async () => {
    const meter = await startPartMeter({ self: () => [process.pid] });
    const before = process.cpuUsage();
    let x = 0;
    for (;;) {
      for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
      const used = process.cpuUsage(before);
      if (used.user + used.system >= 200_000) break;
    }
    const split = await meter.stop();
    expect(x).toBeGreaterThan(0);
    expect(split!.cpuSeconds.self).toBeGreaterThanOrEqual(0.18);
  });

  it('finds the PostgreSQL backends of the connections a bench named, and only those', async () => {
    const url = process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    const app = `bench-meter-test-${process.pid}`;
    const named = new pg.Client({ connectionString: url, application_name: app });
    const other = new pg.Client({ connectionString: url, application_name: `${app}-other` });
    await Promise.all([named.connect(), other.connect()]);
    const backends = postgresBackends(url, app);
    try {
      const { rows } = await named.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(await backends.pids()).toEqual([rows[0]!.pid]);
    } finally {
      await Promise.all([named.end(), other.end(), backends.close()]);
    }
  });

  it.runIf(process.platform === 'linux')('finds the redis-server process behind a URL', async () => {
    const pid = await redisServerPid(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    expect(existsSync(`/proc/${pid}/stat`)).toBe(true);
  });
});
