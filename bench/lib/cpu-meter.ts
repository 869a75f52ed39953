import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU time spent during a measured stretch: the whole machine (busy, idle and stolen
 * by the hypervisor, from /proc/stat) and by whom (this Node process, the PostgreSQL
 * and Redis server processes, everything else), so a bench can say what one unit of
 * work costs each part and whether the machine had cores left.
 *
 * Linux only (/proc); elsewhere `stop()` gives null and the bench prints no split.
 * A server process that exits during the stretch takes its ticks with it (pools
 * keep their connections, so in a bench this is rare and only ever undercounts;
 * a pid reused meanwhile, by a server process again, would be miscounted).
 */
export type CpuSplit = {
  /** Wall time of the stretch, seconds. */
  seconds: number;
  /** Share of all cores that was busy (user + system + irq), 0..1. */
  machineBusy: number;
  /** Share of all cores the hypervisor gave to someone else (steal), 0..1. */
  machineSteal: number;
  /** CPU seconds of each part during the stretch. */
  cpuSeconds: { node: number; postgres: number; redis: number; other: number };
};

type ProcTimes = { postgres: Map<string, number>; redis: Map<string, number> };
type MachineTimes = { busy: number; idle: number; steal: number; all: number };

/** Clock ticks per second of /proc's times (USER_HZ): 100 on every Linux build that matters. */
const TICKS = 100;

export async function startCpuMeter(): Promise<{ stop: () => Promise<CpuSplit | null> }> {
  const started = performance.now();
  const node0 = process.cpuUsage();
  const machine0 = await machineTimes();
  const procs0 = await processTimes();
  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      const node = process.cpuUsage(node0);
      const [machine1, procs1] = [await machineTimes(), await processTimes()];
      if (!machine0 || !machine1 || !procs0 || !procs1) return null;
      const all = machine1.all - machine0.all;
      const nodeSeconds = (node.user + node.system) / 1e6;
      const postgres = ticksBetween(procs0.postgres, procs1.postgres) / TICKS;
      const redis = ticksBetween(procs0.redis, procs1.redis) / TICKS;
      const busy = (machine1.busy - machine0.busy) / TICKS;
      return {
        seconds,
        machineBusy: all > 0 ? (machine1.busy - machine0.busy) / all : 0,
        machineSteal: all > 0 ? (machine1.steal - machine0.steal) / all : 0,
        cpuSeconds: {
          node: nodeSeconds,
          postgres,
          redis,
          other: Math.max(0, busy - nodeSeconds - postgres - redis),
        },
      };
    },
  };
}

/**
 * Microseconds of CPU per unit of work for each part (`units` done in the stretch),
 * their sum, the machine's busy and stolen shares, and the rate at which that sum
 * would keep every core busy (`cores` × 1 s / the sum: a ceiling, since what a unit
 * costs only grows as the cores fill), as figures named `{prefix}CpuUsNode` and so on.
 */
export function cpuPerUnit(
  prefix: string,
  split: CpuSplit | null,
  units: number,
  cores: number,
): Record<string, number> {
  if (!split || units <= 0) return {};
  const { node, postgres, redis, other } = split.cpuSeconds;
  const us = (s: number) => Math.round((s * 1e6) / units);
  const total = us(node + postgres + redis + other);
  return {
    [`${prefix}CpuUsNode`]: us(node),
    [`${prefix}CpuUsPostgres`]: us(postgres),
    [`${prefix}CpuUsRedis`]: us(redis),
    [`${prefix}CpuUsOther`]: us(other),
    [`${prefix}CpuUsTotal`]: total,
    [`${prefix}CpuBoundPerSecond`]: total > 0 ? Math.round((cores * 1e6) / total) : 0,
    [`${prefix}MachineBusyPct`]: Math.round(split.machineBusy * 1000) / 10,
    [`${prefix}MachineStealPct`]: Math.round(split.machineSteal * 1000) / 10,
  };
}

/** Several stretches as one (their CPU seconds summed, their shares weighted by duration). */
export function mergeCpuSplits(splits: (CpuSplit | null)[]): CpuSplit | null {
  if (splits.length === 0 || splits.some((x) => x === null)) return null;
  const all = splits as CpuSplit[];
  const seconds = all.reduce((a, x) => a + x.seconds, 0);
  const sum = (f: (x: CpuSplit) => number) => all.reduce((a, x) => a + f(x), 0);
  return {
    seconds,
    machineBusy: sum((x) => x.machineBusy * x.seconds) / seconds,
    machineSteal: sum((x) => x.machineSteal * x.seconds) / seconds,
    cpuSeconds: {
      node: sum((x) => x.cpuSeconds.node),
      postgres: sum((x) => x.cpuSeconds.postgres),
      redis: sum((x) => x.cpuSeconds.redis),
      other: sum((x) => x.cpuSeconds.other),
    },
  };
}

/** /proc/stat's first line: busy, idle and steal ticks over all cores. */
async function machineTimes(): Promise<MachineTimes | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq!;
    const waiting = idle! + iowait!;
    return { busy, idle: waiting, steal: steal!, all: busy + waiting + steal! };
  } catch {
    return null;
  }
}

/** utime + stime ticks of each postgres and redis-server process (by command name), by pid. */
async function processTimes(): Promise<ProcTimes | null> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const times: ProcTimes = { postgres: new Map(), redis: new Map() };
  await Promise.all(
    pids.map(async (pid) => {
      let stat: string;
      try {
        stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      } catch {
        return; // exited meanwhile
      }
      // "pid (comm) state ppid ..." — comm may hold spaces, so split after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
      if (comm === 'postgres') times.postgres.set(pid, ticks);
      else if (comm.startsWith('redis-server')) times.redis.set(pid, ticks);
    }),
  );
  return times;
}

/** Ticks spent between two readings by the processes alive at the end (all of it for those started since). */
function ticksBetween(before: Map<string, number>, after: Map<string, number>): number {
  let sum = 0;
  for (const [pid, ticks] of after) sum += ticks - (before.get(pid) ?? 0);
  return sum;
}
