import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onFreePort, waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { type RedisServerProcess, spawnRedisServer } from './redis-server.js';

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
  private readonly nodes = new Map<number, RedisServerProcess>();

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
    const started = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        // The cluster bus listens on port + 10000: both must be free, and a node that
        // finds either taken after all starts again on other ports.
        onFreePort((port) => spawnRedisServer(port, nodeArgs(port, dir)), { alsoFree: [10_000] }),
      ),
    );
    const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const cluster = new RedisCluster(
      nodes.map((n) => n.port),
      dir,
    );
    for (const n of nodes) cluster.nodes.set(n.port, n);
    try {
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      await run('redis-cli', [
        '--cluster',
        'create',
        ...cluster.ports.map((p) => `127.0.0.1:${p}`),
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
    await this.nodes.get(node.port)?.kill('SIGKILL');
    this.nodes.delete(node.port);
    if (!opts.awaitFailover) return;
    if (!replica) throw new Error(`node ${node.port} has no replica to fail over to`);
    // The others notice the master gone after cluster-node-timeout; its replica then takes over.
    await waitFor(
      `replica ${replica.port} to take over from ${node.port}`,
      async () => (await this.cmd(replica.port, 'ROLE')).startsWith('master'),
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; replica's log: ${(
          this.nodes.get(replica.port)?.logTail(Number.POSITIVE_INFINITY) ?? ''
        )
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
    await Promise.all([...this.nodes.values()].map((n) => n.kill('SIGKILL')));
    this.nodes.clear();
    await rm(this.dir, { recursive: true, force: true });
  }

  private alive(): number[] {
    return [...this.nodes.keys()];
  }
}

/** A cluster node's settings, its files in `dir`. */
function nodeArgs(port: number, dir: string): string[] {
  return [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(dir, `nodes-${port}.conf`),
    '--cluster-node-timeout',
    '1000',
    // A replica may always take over, however long since it last heard from its
    // master: with a 1 s node timeout the default factor (10) made a replica
    // refuse now and then ("Disconnected from master for longer than allowed").
    '--cluster-replica-validity-factor',
    '0',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--maxmemory-policy',
    'noeviction',
  ];
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
