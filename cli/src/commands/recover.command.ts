import { type EventStream, recoverEvents } from '@touchbase/ingest';
import { HttpEventStream, sandboxEventStream } from '@touchbase/providers';
import { type Config, openRuntime } from '@touchbase/runtime';

/** Providers that offer a pull stream of their events, by name. */
function streamFor(provider: string, config: Config): (EventStream & { close(): Promise<void> }) | string {
  switch (provider) {
    case 'http':
      if (!config.HTTP_PROVIDER_URL) return 'HTTP_PROVIDER_URL is not set: where is the http provider?';
      return new HttpEventStream({ baseUrl: config.HTTP_PROVIDER_URL, apiKey: config.HTTP_PROVIDER_TOKEN });
    case 'sandbox':
      // Where the sender reaches it (as the runtime does); its stream takes the webhook secret.
      return sandboxEventStream({
        baseUrl: config.SANDBOX_URL ?? `http://127.0.0.1:${config.SANDBOX_PORT}`,
        webhookSecret: config.SANDBOX_WEBHOOK_SECRET,
      });
    default:
      return `provider "${provider}" offers no event stream (known: http, sandbox)`;
  }
}

/**
 * `touchbase recover --provider NAME`: walks the provider's event stream from the
 * persisted cursor, records what ingest missed (webhooks lost while it was down),
 * applies it like a webhook and advances the cursor. Prints one JSON line.
 * @returns the exit code.
 */
export async function runRecover(
  config: Config,
  opts: { provider: string; pageSize?: number },
  print: (line: string) => void,
): Promise<number> {
  const stream = streamFor(opts.provider, config);
  if (typeof stream === 'string') {
    print(JSON.stringify({ error: stream }));
    return 2;
  }
  const rt = await openRuntime({ name: 'recover', config });
  try {
    const report = await recoverEvents(
      {
        events: rt.repos.events,
        touchQueue: rt.touchQueue,
        logger: rt.logger.child({ service: 'recover' }),
        metrics: rt.metrics,
        timeScale: config.TIME_SCALE,
        // The CRM outbox is delivered by ingest's notifier; recovery only queues.
        notifyCrm: Boolean(config.HUBSPOT_ACCESS_TOKEN),
        fenceWaitMs: config.INGEST_FENCE_WAIT_MS,
        softBounceRetryMs: config.INGEST_SOFT_BOUNCE_RETRY_MS,
      },
      stream,
      opts.pageSize ? { pageSize: opts.pageSize } : {},
    );
    print(JSON.stringify(report));
    return 0;
  } finally {
    await stream.close();
    await rt.shutdown.run();
  }
}
