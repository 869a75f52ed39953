import { countCapViolations, MailboxThrottle } from '@touchbase/providers';
import {
  createRedisCluster,
  hashSlot,
  queuePrefix,
  touchPartitionOf,
  touchPartitionTag,
} from '@touchbase/queues';
import { describeBootError, loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { waitFor } from '@touchbase/testing';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchGrantLog } from '../support/grant-log-watcher.js';
import { RedisCluster } from '../support/redis-cluster.js';
import { enrollAll, seed, startTestSystem, type TestSystem } from '../support/test-system.js';

const PARTITIONS = 3;
const TIME_SCALE = 288_000; // a day lasts 300 ms

/**
 * The whole system (API, ingest, scheduler, sender, domain-health, sandbox) on a
 * Redis Cluster of 3 masters and 3 replicas that the test starts from the
 * `redis-server` binary, the touches split into 3 partitions, one per shard. The
 * invariants hold as on one Redis: the loop ends, a reply stops the sequence, no
 * touch goes twice, caps hold, a shard's lost data is rebuilt by the reconciler,
 * and a master failing over to its replica (by hand, or by kill -9) loses no touch
 * and sends none twice.
 */
describe('on a 3-master Redis Cluster (REDIS_CLUSTER_NODES, TOUCH_QUEUE_PARTITIONS=3)', () => {
  let cluster: RedisCluster;
  let sys: TestSystem;
  let redis: Cluster;
  // Each node may take up to 30 s to start on a loaded machine (see spawnRedisServer),
  // then the cluster is created and settles, then the system starts.
  beforeAll(async () => {
    cluster = await RedisCluster.start();
    sys = await startTestSystem('cluster', {
      REDIS_CLUSTER_NODES: cluster.seeds,
      TOUCH_QUEUE_PARTITIONS: String(PARTITIONS),
      TIME_SCALE: String(TIME_SCALE),
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
    });
    redis = createRedisCluster(
      cluster.ports.slice(0, 3).map((port) => ({ host: '127.0.0.1', port })),
      'worker',
    );
  }, 120_000);
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
    await cluster?.stop();
  });

  const prefix = () => sys.env.REDIS_PREFIX!;
  const partitionSlot = (i: number) => hashSlot(touchPartitionTag(i, PARTITIONS));

  async function enroll(label: string, n: number, steps: number, wait: string) {
    const emails = Array.from({ length: n }, (_, i) => `${label}${i}@cluster.example`);
    const ids = await seed(sys, { steps, prospects: emails, wait });
    return { ...ids, enrollmentIds: await enrollAll(sys, ids) };
  }

  const ended = (sequenceId: string, n: number, timeoutMs: number) =>
    waitForEnded(sequenceId, n, timeoutMs).catch(async (err: unknown) => {
      // Which enrollments did not end, where their touch is, and what Redis has of its job.
      const { rows } = await sys.rt.db.pool.query<{
        id: string;
        status: string;
        step: number;
        attempt: number;
      }>(
        `SELECT e.id, e.status::text, e.current_step AS step, e.current_attempt AS attempt
           FROM enrollment e WHERE e.sequence_id = $1 AND e.status::text NOT IN ('exhausted', 'replied', 'bounced')`,
        [sequenceId],
      );
      const stuck = await Promise.all(
        rows.slice(0, 10).map(async (e) => {
          const key = e.attempt > 1 ? `${e.id}-${e.step}-${e.attempt}` : `${e.id}-${e.step}`;
          const touches = await sys.rt.db.pool.query(
            'SELECT step, status::text FROM touch WHERE enrollment_id = $1 ORDER BY step',
            [e.id],
          );
          return {
            ...e,
            partition: touchPartitionOf(e.id, PARTITIONS),
            job: await sys.rt.touchQueue.jobState(key).catch((x: Error) => x.message),
            touches: touches.rows,
          };
        }),
      );
      console.log(
        JSON.stringify({ stuckEnrollments: rows.length, stuck, topology: await cluster.topology() }),
      );
      throw err;
    });

  const waitForEnded = (sequenceId: string, n: number, timeoutMs: number) =>
    waitFor(
      `all ${n} enrollments of the sequence to end`,
      async () => {
        const s = (await sys.api('GET', `/v1/stats?sequenceId=${sequenceId}`)).body;
        const done = ['exhausted', 'replied', 'bounced'].reduce((a, k) => a + (s.byStatus[k] ?? 0), 0);
        return done === n ? s : null;
      },
      { timeoutMs, intervalMs: 200 },
    );

  /** The sandbox's deliveries of these enrollments, and the touch keys among them sent more than once. */
  const deliveriesOf = (enrollmentIds: string[]) => {
    const ids = new Set(enrollmentIds);
    const ds = sys.sandbox.deliveries().filter((d) => ids.has(d.enrollmentId));
    const seen = new Set<string>();
    const twice = ds
      .filter((d) => seen.size === seen.add(d.idempotencyKey).size)
      .map((d) => d.idempotencyKey);
    return { ds, twice };
  };

  it('the touch partitions are hash-tagged onto three slots served by three different masters', async () => {
    const masters = await cluster.masters();
    expect(masters).toHaveLength(3);
    const owners = await Promise.all(
      Array.from(
        { length: PARTITIONS },
        async (_, i) => (await cluster.shardOf(partitionSlot(i))).master.port,
      ),
    );
    expect(new Set(owners).size).toBe(3);
    expect(queuePrefix(sys.rt.queueLayout, 'touches', 1)).toBe(`${prefix()}:{${touchPartitionTag(1, 3)}}`);
    expect(queuePrefix(sys.rt.queueLayout, 'scheduler')).toBe(`${prefix()}:{scheduler}`);
  });

  it('boot refuses the wrong kind of Redis, with a message naming the variable to set', async () => {
    const boot = async (env: Record<string, string>) => {
      try {
        const rt = await openRuntime({ name: 'layout-check', config: loadRuntimeConfig(env) });
        await rt.shutdown.run();
      } catch (err) {
        return describeBootError(err);
      }
      throw new Error('the runtime opened');
    };
    const node = cluster.ports[0]!;
    expect(
      await boot({ REDIS_URL: `redis://127.0.0.1:${node}`, DATABASE_URL: sys.env.DATABASE_URL! }),
    ).toMatch(
      new RegExp(`^REDIS_URL: 127\\.0\\.0\\.1:${node} is a Redis Cluster node; set REDIS_CLUSTER_NODES`),
    );
    const plain = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    expect(
      await boot({
        REDIS_CLUSTER_NODES: `${plain.hostname}:${plain.port || 6379}`,
        DATABASE_URL: sys.env.DATABASE_URL!,
      }),
    ).toMatch(/^REDIS_CLUSTER_NODES: .* is not in cluster mode/);
  });

  it('a campaign runs to the end; a reply stops its sequence; no touch goes twice; the load is spread', async () => {
    const N = 45;
    const STEPS = 3;
    sys.sandbox.script('loop7@cluster.example', 'reply', 2);
    const ids = await enroll('loop', N, STEPS, '1d');
    const stats = await ended(ids.sequenceId, N, 60_000);
    await sys.sandbox.settled();
    const { ds, twice } = deliveriesOf(ids.enrollmentIds);
    expect(twice).toEqual([]);
    expect(stats.byStatus.replied).toBe(1);
    expect(stats.byStatus.exhausted).toBe(N - 1);
    // The replier got touches 1 and 2 and nothing after its reply (the fence).
    const replier = (
      await sys.rt.db.pool.query<{ id: string }>(
        "SELECT e.id FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE p.email = 'loop7@cluster.example'",
      )
    ).rows[0]!.id;
    expect(ds.filter((d) => d.enrollmentId === replier).map((d) => d.step)).toEqual([1, 2]);
    expect(ds).toHaveLength((N - 1) * STEPS + 2);
    await waitFor(
      'no pending job of the replier',
      async () => (await sys.rt.touchQueue.existing([1, 2, 3].map((s) => `${replier}-${s}`))).size === 0,
    );
    // Every partition took enrollments, and each partition's queue keys live on its own master.
    const perPartition = Array.from({ length: PARTITIONS }, () => 0);
    for (const id of ids.enrollmentIds) perPartition[touchPartitionOf(id, PARTITIONS)]!++;
    expect(perPartition.every((n) => n > 0)).toBe(true);
    const keysPerMaster: Record<number, number> = {};
    for (const m of await cluster.masters())
      keysPerMaster[m.port] = Number(await cluster.cmd(m.port, 'DBSIZE'));
    expect(Object.values(keysPerMaster).every((n) => n > 0)).toBe(true);
    console.log(
      JSON.stringify({
        test: 'cluster-loop',
        enrollments: N,
        deliveries: ds.length,
        perPartition,
        keysPerMaster,
      }),
    );
  }, 90_000);

  it('caps hold: the grant log of a capped mailbox shows no window past its cap', async () => {
    const PER_DAY = 4;
    const PROSPECTS = 16;
    const CAPS = { perMinute: PER_DAY, perHour: PER_DAY, perDay: PER_DAY, minSpacingMs: 0 };
    const ids = await seed(sys, {
      steps: 1,
      wait: '0s',
      caps: CAPS,
      prospects: Array.from({ length: PROSPECTS }, (_, i) => `cap${i}@cluster.example`),
    });
    // A day lasts 300 ms here and the log keeps a day: a thread of its own reads it
    // often enough to see every grant, whatever the system in this process is doing.
    const watcher = await watchGrantLog({
      key: `${prefix()}:throttle:{${ids.mailboxId}}`,
      nodes: cluster.ports.slice(0, 3).map((port) => ({ host: '127.0.0.1', port })),
      cluster: true,
    });
    const enrollmentIds = await enrollAll(sys, ids);
    await ended(ids.sequenceId, PROSPECTS, 60_000);
    const { grants, maxGapMs, reads } = await watcher.stop();
    console.log(
      JSON.stringify({ test: 'cluster-caps', grants: grants.size, reads, maxGapMs: Math.round(maxGapMs) }),
    );
    const throttle = new MailboxThrottle(redis, { prefix: prefix(), timeScale: TIME_SCALE });
    const windows = throttle.windows(CAPS);
    const { ds, twice } = deliveriesOf(enrollmentIds);
    expect(twice).toEqual([]);
    expect(ds).toHaveLength(PROSPECTS);
    expect(
      grants.size,
      `${reads} reads of the log, at most ${maxGapMs.toFixed(0)} ms apart`,
    ).toBeGreaterThanOrEqual(PROSPECTS);
    expect(countCapViolations([...grants.values()], windows)).toBe(0);
  }, 90_000);

  it("a shard's data lost (FLUSHALL on its master and so its replica) is rebuilt by the reconciler: no touch lost, none twice", async () => {
    const N = 60;
    const STEPS = 3;
    const before = sys.sandbox.deliveries().length;
    // 3 days between touches, 0.9 s here: the flush lands while most enrollments wait.
    const ids = await enroll('shard', N, STEPS, '3d');
    await waitFor('a third of the touches', () => sys.sandbox.deliveries().length - before >= N, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const { master, replica } = await cluster.shardOf(partitionSlot(0));
    const keysLost = Number(await cluster.cmd(master.port, 'DBSIZE'));
    // The replica has the flush once WAIT says so (its DBSIZE may be back above 0 by then).
    const acked = await cluster.flushAll(master);
    expect(acked).toBe(replica ? 1 : 0);
    const stats = await ended(ids.sequenceId, N, 60_000);
    const { ds, twice } = deliveriesOf(ids.enrollmentIds);
    expect(twice).toEqual([]);
    expect(ds).toHaveLength(N * STEPS);
    expect(stats.sentByStep).toEqual({ '1': N, '2': N, '3': N });
    const repaired = (
      await sys.rt.metrics.registry.getSingleMetric('touchbase_scheduler_reconcile_repairs_total')?.get()
    )?.values[0]?.value;
    expect(repaired ?? 0).toBeGreaterThan(0);
    console.log(
      JSON.stringify({
        test: 'cluster-shard-flush',
        keysLost,
        repairedSoFar: repaired,
        deliveries: ds.length,
      }),
    );
  }, 90_000);

  it('a manual failover (CLUSTER FAILOVER on a replica) mid-campaign loses no touch and sends none twice', async () => {
    const N = 60;
    const STEPS = 3;
    const before = sys.sandbox.deliveries().length;
    const ids = await enroll('manual', N, STEPS, '2d');
    await waitFor('a third of the touches', () => sys.sandbox.deliveries().length - before >= N, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const { replica } = await cluster.shardOf(partitionSlot(1));
    expect(replica).toBeDefined();
    const t0 = Date.now();
    await cluster.failover(replica!);
    const failoverMs = Date.now() - t0;
    const stats = await ended(ids.sequenceId, N, 60_000);
    const { ds, twice } = deliveriesOf(ids.enrollmentIds);
    expect(twice).toEqual([]);
    expect(ds).toHaveLength(N * STEPS);
    expect(stats.sentByStep).toEqual({ '1': N, '2': N, '3': N });
    console.log(JSON.stringify({ test: 'cluster-manual-failover', failoverMs, deliveries: ds.length }));
  }, 90_000);

  it('kill -9 of a master mid-campaign: its replica takes over; no touch lost, none twice', async () => {
    const N = 60;
    const STEPS = 3;
    const before = sys.sandbox.deliveries().length;
    const ids = await enroll('killed', N, STEPS, '2d');
    await waitFor('a third of the touches', () => sys.sandbox.deliveries().length - before >= N, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const { master } = await cluster.shardOf(partitionSlot(2));
    const t0 = Date.now();
    await cluster.kill(master, { awaitFailover: true });
    const failoverMs = Date.now() - t0;
    const stats = await ended(ids.sequenceId, N, 90_000);
    const { ds, twice } = deliveriesOf(ids.enrollmentIds);
    expect(twice).toEqual([]);
    expect(ds).toHaveLength(N * STEPS);
    expect(stats.sentByStep).toEqual({ '1': N, '2': N, '3': N });
    console.log(JSON.stringify({ test: 'cluster-kill-master', failoverMs, deliveries: ds.length }));
  }, 120_000);
});
