import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * CPU of named parts during a measured stretch, each part a set of processes read
 * from /proc (utime + stime of every thread), so a bench charges touchbase only what
 * its own processes, its PostgreSQL backends and its Redis server spent: not the load
 * generator, not the provider, not another engineer's tests on the same machine.
 *
 * Linux only: elsewhere `stop()` gives null and the bench prints no split. A process
 * that exits during the stretch takes its ticks with it (undercount; the benches keep
 * their processes and pools alive while measuring).
 */
export type PartSplit = {
  /** Wall time of the stretch, seconds. */
  seconds: number;
  /** Share of all cores that was busy (user + system + irq), 0..1. */
  machineBusy: number;
  /** Share of all cores the hypervisor gave to someone else (steal), 0..1. */
  machineSteal: number;
  /** CPU seconds of each part during the stretch. */
  cpuSeconds: Record<string, number>;
};

/** Each part's processes; asked at the start and at the end (a process found only at the end counts from 0). */
export type PartPids = Record<string, () => Promise<number[]> | number[]>;

/** Clock ticks per second of /proc's times (USER_HZ): 100 on every Linux build that matters. */
const TICKS = 100;

/** utime + stime ticks from one `/proc/<pid>/stat` line; null when it does not parse. */
export function statTicks(stat: string): number | null {
  // "pid (comm) state ppid ..." — comm may hold spaces and parentheses: split after the last ')'.
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : null;
}

async function pidTicks(pid: number): Promise<number | null> {
  try {
    return statTicks(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // exited
  }
}

async function machineTicks(): Promise<{ busy: number; steal: number; all: number } | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq!;
    return { busy, steal: steal!, all: busy + idle! + iowait! + steal! };
  } catch {
    return null;
  }
}

async function partTicks(parts: PartPids): Promise<Map<string, Map<number, number>>> {
  const out = new Map<string, Map<number, number>>();
  for (const [name, pidsOf] of Object.entries(parts)) {
    const byPid = new Map<number, number>();
    for (const pid of await pidsOf()) {
      const t = await pidTicks(pid);
      if (t !== null) byPid.set(pid, t);
    }
    out.set(name, byPid);
  }
  return out;
}

/** Ticks spent between two readings by the processes alive at the end (all of it for those first seen at the end). */
export function ticksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ticks] of after) sum += ticks - (before.get(pid) ?? 0);
  return sum;
}

export async function startPartMeter(parts: PartPids): Promise<{ stop: () => Promise<PartSplit | null> }> {
  const started = performance.now();
  const machine0 = await machineTicks();
  const ticks0 = await partTicks(parts);
  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      const ticks1 = await partTicks(parts);
      const machine1 = await machineTicks();
      if (!machine0 || !machine1 || process.platform !== 'linux') return null;
      const all = machine1.all - machine0.all;
      const cpuSeconds: Record<string, number> = {};
      for (const name of Object.keys(parts))
        cpuSeconds[name] = ticksBetween(ticks0.get(name) ?? new Map(), ticks1.get(name) ?? new Map()) / TICKS;
      return {
        seconds,
        machineBusy: all > 0 ? (machine1.busy - machine0.busy) / all : 0,
        machineSteal: all > 0 ? (machine1.steal - machine0.steal) / all : 0,
        cpuSeconds,
      };
    },
  };
}

/**
 * CPU per unit of work by part, in microseconds (`{prefix}CpuUs{Part}`, and their
 * `Total`) and, given the machine unit (µs of CPU a bare route spends on one request
 * in the same run), in machine units (`{prefix}Units{Part}`, `{prefix}UnitsTotal`);
 * with the machine's busy and stolen shares.
 */
export function partsPerUnit(
  prefix: string,
  split: PartSplit | null,
  units: number,
  machineUnitUs?: number | null,
): Record<string, number> {
  if (!split || units <= 0) return {};
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const out: Record<string, number> = {};
  let total = 0;
  const us = (s: number) => (s * 1e6) / units;
  const inUnits = (x: number) => Math.round((x / machineUnitUs!) * 100) / 100;
  for (const [part, s] of Object.entries(split.cpuSeconds)) {
    total += us(s);
    out[`${prefix}CpuUs${cap(part)}`] = Math.round(us(s));
  }
  out[`${prefix}CpuUsTotal`] = Math.round(total);
  if (machineUnitUs && machineUnitUs > 0) {
    for (const [part, s] of Object.entries(split.cpuSeconds))
      out[`${prefix}Units${cap(part)}`] = inUnits(us(s));
    out[`${prefix}UnitsTotal`] = inUnits(total);
  }
  out[`${prefix}MachineBusyPct`] = Math.round(split.machineBusy * 1000) / 10;
  out[`${prefix}MachineStealPct`] = Math.round(split.machineSteal * 1000) / 10;
  return out;
}

/** Several stretches as one (CPU seconds summed by part, shares weighted by duration). */
export function mergePartSplits(splits: (PartSplit | null)[]): PartSplit | null {
  if (splits.length === 0 || splits.some((x) => x === null)) return null;
  const all = splits as PartSplit[];
  const seconds = all.reduce((a, x) => a + x.seconds, 0);
  const cpuSeconds: Record<string, number> = {};
  for (const x of all)
    for (const [k, v] of Object.entries(x.cpuSeconds)) cpuSeconds[k] = (cpuSeconds[k] ?? 0) + v;
  return {
    seconds,
    machineBusy: all.reduce((a, x) => a + x.machineBusy * x.seconds, 0) / seconds,
    machineSteal: all.reduce((a, x) => a + x.machineSteal * x.seconds, 0) / seconds,
    cpuSeconds,
  };
}

/**
 * The pids of the PostgreSQL backends that serve connections named `application`
 * (the bench gives touchbase's processes `?application_name=…` in DATABASE_URL, see
 * {@link withApplicationName}), read from pg_stat_activity: what touchbase's processes
 * cost the server, without the bench's own seeding and watching or anyone else's tests.
 */
export function postgresBackends(
  databaseUrl: string,
  application: string,
): { pids: () => Promise<number[]>; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'bench-meter' });
  return {
    async pids() {
      // Of this database only: another run of the same bench elsewhere on the server is not ours.
      const { rows } = await pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
         WHERE application_name = $1 AND datname = current_database() AND backend_type = 'client backend'`,
        [application],
      );
      return rows.map((r) => r.pid);
    },
    close: () => pool.end(),
  };
}

/** `url` with `application_name` set (PostgreSQL reports it in pg_stat_activity). */
export function withApplicationName(url: string, application: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', application);
  return u.toString();
}

/** The pid of the redis-server behind `url` (INFO server's process_id); it must run on this machine. */
export async function redisServerPid(url: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
    if (!Number.isInteger(pid)) throw new Error(`no process_id in INFO server of ${url}`);
    return pid;
  } finally {
    redis.disconnect();
  }
}
