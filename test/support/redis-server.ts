import { type ChildProcess, spawn } from 'node:child_process';
import { PortTakenError } from '@touchbase/testing';
import { Redis } from 'ioredis';

/**
 * How long a redis-server that is still running may take to answer. A dead one
 * fails at once, with its log; a live one is given time: a cluster node fsyncs its
 * nodes.conf before it listens, and on a loaded CI machine (PostgreSQL creating
 * databases beside it) that took seconds, past the 10 s the cluster used to wait.
 */
const STARTUP_MS = 30_000;

/** A redis-server child process of a test, with what it printed. */
export type RedisServerProcess = {
  port: number;
  child: ChildProcess;
  /** The last lines it printed (it logs to stdout), for an error that names why it failed. */
  logTail(lines?: number): string;
  /** SIGKILL or SIGTERM, resolved once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
};

/**
 * Starts `redis-server --port <port> --bind 127.0.0.1 <args>` and resolves once
 * this very process answers PING (INFO's `process_id` is the child's: a server
 * of someone else that took the port is never mistaken for ours). Throws
 * {@link PortTakenError} when it exits because its port (or a cluster node's bus
 * port) was bound by another process first, so the caller starts it again on
 * another port; any other failure throws with the end of its log.
 */
export async function spawnRedisServer(port: number, args: string[]): Promise<RedisServerProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + String(d)).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // spawn failed (no binary): 'exit' may never come, 'error' does.
    child.once('error', (err) => {
      keep(Buffer.from(`spawn failed: ${err.message}\n`));
      resolve();
    });
  });
  const server: RedisServerProcess = {
    port,
    child,
    logTail: (lines = 15) => out.trimEnd().split('\n').slice(-lines).join('\n'),
    kill: async (signal) => {
      if (exited()) return;
      child.kill(signal);
      await exit;
    },
  };
  const deadline = Date.now() + STARTUP_MS;
  let last = 'no answer yet';
  for (;;) {
    if (exited() || child.pid === undefined) {
      await exit;
      const log = server.logTail();
      const why = `redis-server on port ${port} exited (${child.exitCode ?? child.signalCode}) before it answered; its log:\n${log}`;
      throw /Address already in use/.test(log) ? new PortTakenError(why) : new Error(why);
    }
    // Raced with the exit: whatever holds the port instead may accept and never answer.
    const pid = await Promise.race([
      answeringPid(port).catch((err: Error) => {
        last = err.message;
        return undefined;
      }),
      exit.then(() => undefined),
    ]);
    if (pid === child.pid) return server;
    if (pid !== undefined) last = `port ${port} answered by another redis-server (pid ${pid})`;
    if (Date.now() > deadline) {
      await server.kill('SIGKILL');
      throw new Error(
        `redis-server on port ${port} did not answer in ${STARTUP_MS / 1000} s (${last}); its log:\n${server.logTail()}`,
      );
    }
    await Promise.race([exit, new Promise((r) => setTimeout(r, 50))]);
  }
}

/** The pid of the redis-server answering on `port`. */
async function answeringPid(port: number): Promise<number> {
  const probe = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    // Bounded: whatever holds the port instead may accept and never answer (no ready
    // check either, its INFO would not be bounded by commandTimeout).
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {
    // Not listening yet: the connect below rejects and the caller asks again.
  });
  try {
    await probe.connect();
    const info = await probe.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } finally {
    probe.disconnect();
  }
}
