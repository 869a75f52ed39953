import { ConfigError } from '@touchbase/config';
import { startMetricsServer } from './metrics-server.js';
import { loadRuntimeConfig, openRuntime, type Runtime } from './runtime.js';

/**
 * The body of every service's `main.ts`: parse the config, open the runtime, start
 * the service (and, when METRICS_PORT is set, the small server with `/metrics`,
 * `/healthz` and `/readyz` that the worker-only services otherwise lack), shut
 * down in order on SIGINT/SIGTERM. A configuration or connection problem ends the
 * process with exit code 1 and a message for a person (which variable, which
 * server, how to get it), not a stack trace.
 */
export async function runService(
  name: string,
  start: (rt: Runtime) => Promise<unknown> | unknown,
): Promise<void> {
  try {
    const config = loadRuntimeConfig();
    const rt = await openRuntime({ name, config });
    await start(rt);
    if (rt.config.METRICS_PORT !== undefined) {
      const metrics = await startMetricsServer(rt, name, rt.config.METRICS_PORT);
      rt.shutdown.addFirst('metrics http', () => metrics.close());
    }
    rt.shutdown.onSignals();
    rt.logger.info({ service: name }, 'Service started');
  } catch (err) {
    process.stderr.write(`${name}: ${describeBootError(err)}\n`);
    process.exit(1);
  }
}

/** A boot error as a person should read it. */
export function describeBootError(err: unknown): string {
  const e = err as Error & { code?: string };
  if (err instanceof ConfigError || /unavailable|unreachable|^MIGRATION_|^DATABASE_/i.test(e.code ?? ''))
    return e.message;
  return e.stack ?? String(err);
}
