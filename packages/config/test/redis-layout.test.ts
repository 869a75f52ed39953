import { describe, expect, it } from 'vitest';
import { AllEnv, ConfigError, checkRedisLayout, loadConfig } from '../src/index.js';

/** Parses as every service does at boot: the variables, then the layout they make. */
function load(env: Record<string, string>) {
  const config = loadConfig(AllEnv, env);
  checkRedisLayout(config);
  return config;
}

function refusal(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('the layout was accepted');
}

describe('the Redis layout (REDIS_CLUSTER_NODES, TOUCH_QUEUE_PARTITIONS)', () => {
  it('reads the seed nodes of a cluster and the number of touch partitions', () => {
    const config = load({
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002',
      TOUCH_QUEUE_PARTITIONS: '6',
    });
    expect(config.REDIS_CLUSTER_NODES).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(config.TOUCH_QUEUE_PARTITIONS).toBe(6);
    expect(load({}).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(load({}).TOUCH_QUEUE_PARTITIONS).toBe(1);
  });

  it('a node that is not host:port is refused, naming REDIS_CLUSTER_NODES and the node', () => {
    const err = refusal({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis://10.0.0.2:7000' });
    expect(err.issues.map((i) => i.variable)).toEqual(['REDIS_CLUSTER_NODES']);
    expect(err.message).toContain("'redis://10.0.0.2:7000' is not host:port");
    expect(refusal({ REDIS_CLUSTER_NODES: '10.0.0.1:70000' }).issues[0]?.variable).toBe(
      'REDIS_CLUSTER_NODES',
    );
  });

  it('partitions out of 1..64 are refused, naming TOUCH_QUEUE_PARTITIONS', () => {
    expect(refusal({ TOUCH_QUEUE_PARTITIONS: '0' }).issues[0]?.variable).toBe('TOUCH_QUEUE_PARTITIONS');
    expect(refusal({ TOUCH_QUEUE_PARTITIONS: '65' }).issues[0]?.variable).toBe('TOUCH_QUEUE_PARTITIONS');
  });

  it('on a cluster, a hash tag in REDIS_PREFIX (every queue on one shard) is refused, naming REDIS_PREFIX', () => {
    const err = refusal({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', REDIS_PREFIX: '{touchbase}' });
    expect(err.issues.map((i) => i.variable)).toEqual(['REDIS_PREFIX']);
    expect(err.message).toMatch(/REDIS_PREFIX: must not contain \{ or \} with REDIS_CLUSTER_NODES/);
    // On one Redis the tag is harmless and kept as it was.
    expect(load({ REDIS_PREFIX: '{touchbase}' }).REDIS_PREFIX).toBe('{touchbase}');
  });

  it('on a cluster, the Bottleneck throttle is refused, naming SENDER_THROTTLE', () => {
    const err = refusal({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', SENDER_THROTTLE: 'bottleneck' });
    expect(err.issues.map((i) => i.variable)).toEqual(['SENDER_THROTTLE']);
    expect(err.message).toContain("SENDER_THROTTLE: must be 'lua' with REDIS_CLUSTER_NODES");
  });
});
