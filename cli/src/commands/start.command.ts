import { startApi } from '@touchbase/api';
import { startDomainHealth } from '@touchbase/domain-health';
import { startIngest } from '@touchbase/ingest';
import { SandboxServer } from '@touchbase/providers';
import { type Config, listenNamed, openRuntime, type Runtime } from '@touchbase/runtime';
import { startScheduler } from '@touchbase/scheduler';
import { startSender } from '@touchbase/sender';
import type { Logger } from '@touchbase/telemetry';
import { sandboxOptions } from './sandbox-options.js';

/** Everything `touchbase start` runs, for the demo and tests to drive. */
export type System = { rt: Runtime; sandbox: SandboxServer; apiUrl: string; ingestUrl: string };

/**
 * Runs every service in one process on one runtime, with the sandbox provider on
 * loopback: migrations, sandbox, ingest, API, scheduler, sender, domain-health.
 */
export async function startSystem(
  config: Config,
  opts: {
    pacingMs?: number;
    /** Leave the sender out (tests run it as a child process). */
    withoutSender?: boolean;
    /** Where the services log (the demo sends them to a file); default: stdout at LOG_LEVEL. */
    logger?: Logger;
  } = {},
): Promise<System> {
  const sandbox = new SandboxServer(sandboxOptions(config));
  await listenNamed('SANDBOX_PORT', { host: '127.0.0.1', port: config.SANDBOX_PORT }, () => sandbox.start());
  let rt: Runtime;
  try {
    rt = await openRuntime({
      name: 'touchbase',
      config,
      migrate: true,
      sandboxUrl: sandbox.url,
      ...(opts.logger ? { logger: opts.logger } : {}),
    });
  } catch (err) {
    await sandbox.close();
    throw err;
  }
  rt.shutdown.add('sandbox server', () => sandbox.close());
  const ingest = await startIngest(rt);
  const ingestUrl = `http://127.0.0.1:${(ingest.server.address() as { port: number }).port}`;
  sandbox.setWebhookUrl(`${ingestUrl}/webhooks/sandbox`);
  const api = await startApi(rt, opts);
  const apiUrl = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
  await startScheduler(rt);
  if (!opts.withoutSender) await startSender(rt);
  await startDomainHealth(rt);
  rt.logger.info({ apiUrl, ingestUrl, sandboxUrl: sandbox.url }, 'touchbase started');
  return { rt, sandbox, apiUrl, ingestUrl };
}
