import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/** One node of the cluster as `CLUSTER NODES` shows it. */
export type ClusterNode = {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master a replica follows. */
  masterId: string | undefined;
  /** Slot ranges a master serves, `[from, to]` inclusive. */
  slots: [number, number][];
  failed: boolean;
};

/**
 * A Redis Cluster of 3 masters and 3 replicas, started by the test from the
 * `redis-server` binary on free loopback ports in a temporary directory (never the
 * shared Redis on 6379), joined with `redis-cli --cluster create --cluster-replicas 1`.
 * `cluster-node-timeout` is 1 s, so a dead master's replica takes over in about 2 s.
 */
export class RedisCluster {
  private readonly children = new Map<number, ChildProcess>();
  /** The last lines each node printed, for a node that would not start. */
  private readonly output = new Map<number, string>();

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
  ) {}

  /** REDIS_CLUSTER_NODES for these nodes. */
  get seeds(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  static async start(): Promise<RedisCluster> {
    const dir = await mkdtemp(join(tmpdir(), 'touchbase-redis-cluster-'));
    const ports: number[] = [];
    while (ports.length < 6) {
      const p = await freePort();
      // The cluster bus listens on port + 10000: both must be free.
      if (p < 55_000 && !ports.includes(p) && (await isFree(p + 10_000))) ports.push(p);
    }
    const cluster = new RedisCluster(ports, dir);
    try {
      for (const port of ports) cluster.startNode(port);
      await Promise.all(ports.map((p) => cluster.answering(p)));
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      await cluster.settled();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** The nodes as a live node sees them. */
  async topology(): Promise<ClusterNode[]> {
    for (const port of this.alive()) {
      try {
        return parseNodes(await this.cmd(port, 'CLUSTER', 'NODES'));
      } catch {
        // That node is going down: ask the next one.
      }
    }
    throw new Error('no node of the cluster answers');
  }

  /** The master serving a slot, and its replica. */
  async shardOf(slot: number): Promise<{ master: ClusterNode; replica: ClusterNode | undefined }> {
    const nodes = await this.topology();
    const master = nodes.find(
      (n) => n.role === 'master' && !n.failed && n.slots.some(([a, b]) => slot >= a && slot <= b),
    );
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return { master, replica: nodes.find((n) => n.masterId === master.id && !n.failed) };
  }

  /** The live masters, by port. */
  async masters(): Promise<ClusterNode[]> {
    return (await this.topology()).filter((n) => n.role === 'master' && !n.failed && n.slots.length > 0);
  }

  /** Runs a command on one node. */
  async cmd(port: number, ...args: string[]): Promise<string> {
    const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      return String(await redis.call(args[0]!, ...args.slice(1)));
    } finally {
      redis.disconnect();
    }
  }

  /**
   * FLUSHALL on a master, then `WAIT` on the same connection until its replicas have
   * the flush (or `timeoutMs` passes); answers how many replicas acknowledged it.
   * Polling the replica's DBSIZE for 0 instead misses the moment under load: the
   * system writes the shard's keys again (workers, reconcilers) within milliseconds.
   */
  async flushAll(master: ClusterNode, timeoutMs = 5_000): Promise<number> {
    const redis = new Redis(master.port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      await redis.call('FLUSHALL');
      const replicas = (await this.topology()).filter((n) => n.masterId === master.id && !n.failed).length;
      return Number(await redis.call('WAIT', String(replicas), String(timeoutMs)));
    } finally {
      redis.disconnect();
    }
  }

  /** A manual failover: the replica takes its master's slots with no write lost (`CLUSTER FAILOVER`). */
  async failover(replica: ClusterNode): Promise<void> {
    await this.cmd(replica.port, 'CLUSTER', 'FAILOVER');
    await waitFor(
      `node ${replica.port} to be master`,
      async () => (await this.cmd(replica.port, 'ROLE')).startsWith('master'),
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    await this.settled();
  }

  /** SIGKILL of one node; with `awaitFailover`, returns once its replica serves its slots. */
  async kill(node: ClusterNode, opts: { awaitFailover?: boolean } = {}): Promise<void> {
    const replica = (await this.topology()).find((n) => n.masterId === node.id && !n.failed);
    const child = this.children.get(node.port);
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    this.children.delete(node.port);
    if (!opts.awaitFailover) return;
    if (!replica) throw new Error(`node ${node.port} has no replica to fail over to`);
    // The others notice the master gone after cluster-node-timeout; its replica then takes over.
    await waitFor(
      `replica ${replica.port} to take over from ${node.port}`,
      async () => (await this.cmd(replica.port, 'ROLE')).startsWith('master'),
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; replica's log: ${(this.output.get(replica.port) ?? '')
          .split('\n')
          .filter((l) => /ailover|FAIL|lection|vote|epoch/.test(l))
          .join('\n')}`,
      );
    });
    await this.settled();
  }

  /** Waits until every live node says the cluster serves all its slots. */
  async settled(): Promise<void> {
    await waitFor(
      'the cluster to serve every slot',
      async () => {
        for (const port of this.alive()) {
          if (!/cluster_state:ok/.test(await this.cmd(port, 'CLUSTER', 'INFO'))) return false;
        }
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.children.values()].map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGKILL');
          }),
      ),
    );
    this.children.clear();
    await rm(this.dir, { recursive: true, force: true });
  }

  private alive(): number[] {
    return [...this.children.keys()];
  }

  private startNode(port: number): void {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(this.dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '1000',
        // A replica may always take over, however long since it last heard from its
        // master: with a 1 s node timeout the default factor (10) made a replica
        // refuse now and then ("Disconnected from master for longer than allowed").
        '--cluster-replica-validity-factor',
        '0',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + String(d)).slice(-50_000);
      this.output.set(port, out);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.children.set(port, child);
  }

  private answering(port: number): Promise<unknown> {
    return waitFor(`redis-server on ${port}`, async () => (await this.cmd(port, 'PING')) === 'PONG', {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
  }
}

function parseNodes(text: string): ClusterNode[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, addr, flags, master, , , , , ...slots] = line.split(' ');
      const f = flags!.split(',');
      return {
        id: id!,
        port: Number(addr!.split('@')[0]!.split(':')[1]),
        role: f.includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? undefined : master,
        slots: slots
          .filter((s) => !s.startsWith('['))
          .map((s) => {
            const [a, b] = s.split('-');
            return [Number(a), Number(b ?? a)] as [number, number];
          }),
        failed: f.includes('fail') || f.includes('fail?') || f.includes('noaddr'),
      } satisfies ClusterNode;
    });
}

/** Whether a loopback port can be bound right now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
