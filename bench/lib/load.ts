import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PartPids, type PartSplit, startPartMeter } from './part-meter.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What the load generator measured (its own view: 2xx per second of its run, latency). */
export type LoadResult = {
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  perSecond: number;
  latencyMsP50: number;
  latencyMsP99: number;
};

export type LoadConfig = {
  url: string;
  path: string;
  connections: number;
  warmMs: number;
  durationMs: number;
  secret: string;
  /** Enrollment ids the `opened` webhooks name. */
  enrollmentIds: string[];
};

function runTs(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Lines of a child's stdout, one callback each. */
function onLines(child: ChildProcess, f: (line: string) => void): void {
  let buf = '';
  child.stdout?.on('data', (d: Buffer) => {
    buf += String(d);
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      f(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
}

/**
 * Runs the load generator (autocannon, bench/lib/load-generator.ts) in a process of
 * its own against `cfg.url`, and measures the CPU of `parts` from the end of its
 * warm-up to its result: the server's processes, never the generator's.
 */
export async function runLoad(
  cfg: LoadConfig,
  parts: PartPids,
): Promise<{ load: LoadResult; cpu: PartSplit | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'tb-loadgen-'));
  const idsFile = join(dir, 'ids');
  writeFileSync(idsFile, cfg.enrollmentIds.join('\n'));
  try {
    const { enrollmentIds: _, ...rest } = cfg;
    const child = runTs('bench/lib/load-generator.ts', { LOADGEN: JSON.stringify({ ...rest, idsFile }) });
    return await new Promise((resolve, reject) => {
      let meter: Promise<{ stop: () => Promise<PartSplit | null> }> | null = null;
      let settled = false;
      onLines(child, (line) => {
        if (line === 'measuring') meter = startPartMeter(parts);
        else if (line.startsWith('{') && meter) {
          const load = JSON.parse(line) as LoadResult;
          settled = true;
          void meter.then((m) => m.stop()).then((cpu) => resolve({ load, cpu }), reject);
        }
      });
      child.on('exit', (code) => {
        if (!settled) reject(new Error(`load generator exited ${code} without a result`));
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bare Fastify route in a process of its own (bench/lib/bare-route.ts). */
export async function startBareRoute(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = runTs('bench/lib/bare-route.ts', {});
  const port = await new Promise<number>((resolve, reject) => {
    onLines(child, (line) => {
      if (line.startsWith('{')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`bare route exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The machine unit as measured in a run: CPU µs of the bare route's process per request, and its rate. */
export type MachineUnit = { unitUs: number; perSecond: number; latencyMsP99: number; busyPct: number };

/**
 * One machine unit: the CPU a bare Fastify route (its own process) spends on one
 * request, driven by the same generator with the same signed bodies as the bench's
 * own runs; the generator's CPU is not in it.
 */
export async function measureMachineUnit(
  opts: Partial<Omit<LoadConfig, 'url' | 'path'>> = {},
): Promise<MachineUnit & { load: LoadResult }> {
  const bare = await startBareRoute();
  try {
    const { load, cpu } = await runLoad(
      {
        url: bare.url,
        path: '/bare',
        connections: opts.connections ?? 32,
        warmMs: opts.warmMs ?? 1_000,
        durationMs: opts.durationMs ?? 5_000,
        secret: opts.secret ?? `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
        enrollmentIds: opts.enrollmentIds ?? [randomUUID()],
      },
      { bare: () => [bare.pid] },
    );
    const unitUs = cpu && load.ok > 0 ? ((cpu.cpuSeconds.bare ?? 0) * 1e6) / load.ok : Number.NaN;
    return {
      unitUs: Math.round(unitUs * 10) / 10,
      perSecond: Math.round(load.perSecond),
      latencyMsP99: load.latencyMsP99,
      busyPct: cpu ? Math.round(cpu.machineBusy * 1000) / 10 : Number.NaN,
      load,
    };
  } finally {
    await bare.stop();
  }
}
