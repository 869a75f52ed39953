import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports tests hand out: below the kernel's ephemeral range (32768 up on Linux), so
 * neither a `listen(0)` elsewhere nor the local end of an outgoing connection (every
 * PostgreSQL and Redis client of the parallel test files takes one) can land on a
 * port between the moment it was found free and the moment our server binds it.
 * The OS's own `listen(0)` port came from that range, and under CI load it was taken
 * now and then before redis-server bound it.
 */
const RANGE_FROM = 10_000;
const RANGE_TO = Math.min(32_768, ephemeralFrom());

/** Ports this process handed out, not handed out again while a server may not have bound them yet. */
const handedOut = new Set<number>();

/**
 * A TCP port on loopback that is free right now, for a server a test must name
 * before it starts (a public URL, a child process's port). It comes from a range
 * the OS never picks by itself, at random (test files in parallel workers each
 * pick their own); `alsoFree` are offsets that must be free too (a Redis Cluster
 * node's bus listens on port + 10000). A server that still finds it taken is
 * started again on another ({@link onFreePort}).
 */
export async function freePort(opts: { alsoFree?: number[] } = {}): Promise<number> {
  const offsets = [0, ...(opts.alsoFree ?? [])];
  const top = RANGE_TO - Math.max(...offsets);
  for (let i = 0; i < 1_000; i++) {
    const port = RANGE_FROM + Math.floor(Math.random() * (top - RANGE_FROM));
    const ports = offsets.map((o) => port + o);
    if (ports.some((p) => handedOut.has(p))) continue;
    if (!(await everyFree(ports))) continue;
    for (const p of ports) handedOut.add(p);
    return port;
  }
  throw new Error(`no free loopback port between ${RANGE_FROM} and ${RANGE_TO}`);
}

/** Thrown by a server start when its port was taken after all (it may be retried on another). */
export class PortTakenError extends Error {
  override readonly name = 'PortTakenError';
}

/**
 * Runs `start` on a free port (see {@link freePort}); when it throws
 * {@link PortTakenError} (another process bound the port first), runs it again on
 * another port, up to `attempts` times. Any other error is rethrown at once.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  opts: { alsoFree?: number[]; attempts?: number } = {},
): Promise<T> {
  const attempts = opts.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort(opts));
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= attempts) throw err;
    }
  }
}

/** Whether each port can be bound on loopback right now. */
async function everyFree(ports: number[]): Promise<boolean> {
  for (const port of ports) if (!(await isFree(port))) return false;
  return true;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range (Linux); 32768 where it cannot be read. */
function ephemeralFrom(): number {
  try {
    const from = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(from) && from > RANGE_FROM + 1_000 ? from : 32_768;
  } catch {
    // Not Linux: 32768 is where the BSDs' and Linux's default ranges start or lie above.
    return 32_768;
  }
}
