import { ConfigError } from '@touchbase/config';
import { loadEnvFile } from './env-file.js';
import { startMetricsServer } from './metrics-server.js';
import { PortInUseError } from './port-in-use.js';
import { loadRuntimeConfig, openRuntime, type Runtime } from './runtime.js';

/**
 * The body of every service's `main.ts`: load `.env` (the environment wins over it),
 * parse the config, open the runtime, start the service (and, when METRICS_PORT is
 * set, the small server with `/metrics`, `/healthz` and `/readyz` that the
 * worker-only services otherwise lack), shut down in order on SIGINT/SIGTERM. A
 * configuration, connection or port problem ends the process with exit code 1 and
 * a message for a person (which variable, which server, how to get it), not a
 * stack trace.
 */
export async function runService(
  name: string,
  start: (rt: Runtime) => Promise<unknown> | unknown,
): Promise<void> {
  try {
    const envFile = loadEnvFile();
    const config = loadRuntimeConfig();
    const rt = await openRuntime({ name, config });
    await start(rt);
    if (rt.config.METRICS_PORT !== undefined) {
      const metrics = await startMetricsServer(rt, name, rt.config.METRICS_PORT);
      rt.shutdown.addFirst('metrics http', () => metrics.close());
    }
    rt.shutdown.onSignals();
    if (envFile.path)
      rt.logger.info({ path: envFile.path, variables: envFile.loaded }, 'Environment file loaded');
    rt.logger.info({ service: name }, 'Service started');
  } catch (err) {
    process.stderr.write(`${name}: ${describeBootError(err)}\n`);
    process.exit(1);
  }
}

/** A boot error as a person should read it. */
export function describeBootError(err: unknown): string {
  const e = err as Error & { code?: string };
  const refused = loginRefusal(err);
  if (refused)
    return `PostgreSQL refused the login (${refused}). Put the user's password in DATABASE_URL (in .env, for example DATABASE_URL=postgresql://postgres:PASSWORD@127.0.0.1:5432/touchbase), or allow local logins in pg_hba.conf: see the README, "When PostgreSQL refuses the login"`;
  if (
    err instanceof ConfigError ||
    err instanceof PortInUseError ||
    /unavailable|unreachable|^redis_layout$|^MIGRATION_|^DATABASE_/i.test(e.code ?? '')
  )
    return e.message;
  return e.stack ?? String(err);
}

/**
 * PostgreSQL's reason when it answered and refused the login, looking through the
 * boot check's wrapper: 28P01 (wrong password), 28000 (no pg_hba.conf entry), or a
 * server that asks for a password the URL does not carry (Debian's own PostgreSQL
 * on 127.0.0.1, where the postgres role has none).
 */
function loginRefusal(err: unknown): string | null {
  for (
    let e = err as (Error & { code?: string; cause?: unknown }) | undefined, depth = 0;
    e && depth < 3;
    depth++
  ) {
    if (e.code === '28P01' || e.code === '28000' || /client password must be a string/.test(e.message ?? ''))
      return e.message;
    e = e.cause as typeof e;
  }
  return null;
}
