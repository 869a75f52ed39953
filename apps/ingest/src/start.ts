import { HubspotCrmAdapter } from '@touchbase/providers';
import { listenNamed, type Runtime } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';
import { buildIngest } from './app.js';
import { CrmNotifier } from './crm/crm-notifier.js';
import { webhookProvidersFrom } from './webhook-providers.js';

/**
 * Starts ingest on a runtime: the CRM notifier (when a CRM is configured), then the
 * webhook and one-click unsubscribe server; on shutdown intake stops first, then the notifier.
 */
export async function startIngest(rt: Runtime): Promise<FastifyInstance> {
  const logger = rt.logger.child({ service: 'ingest' });
  const crm = rt.config.HUBSPOT_ACCESS_TOKEN
    ? new HubspotCrmAdapter({
        baseUrl: rt.config.HUBSPOT_API_URL,
        accessToken: rt.config.HUBSPOT_ACCESS_TOKEN,
        property: rt.config.HUBSPOT_BOUNCE_PROPERTY,
        replyProperty: rt.config.HUBSPOT_REPLY_PROPERTY,
      })
    : null;
  const notifier = crm
    ? new CrmNotifier({
        outbox: rt.repos.crmOutbox,
        crm,
        logger,
        retryIntervalMs: rt.config.INGEST_CRM_RETRY_INTERVAL_MS,
      })
    : null;
  const app = await buildIngest({
    events: rt.repos.events,
    touchQueue: rt.touchQueue,
    logger,
    metrics: rt.metrics,
    timeScale: rt.config.TIME_SCALE,
    doNotContact: rt.doNotContact,
    notifyCrm: crm !== null,
    ...(notifier ? { onCrmQueued: () => notifier.kick() } : {}),
    ...(crm ? { dealContacts: (dealId: string) => crm.dealContacts(dealId) } : {}),
    fenceWaitMs: rt.config.INGEST_FENCE_WAIT_MS,
    companyStops: rt.config.INGEST_COMPANY_STOP,
    replyActions: rt.config.INGEST_REPLY_ACTIONS,
    alertQueue: rt.alertQueue,
    reactivationQueue: rt.reactivationQueue,
    softBounceRetryMs: rt.config.INGEST_SOFT_BOUNCE_RETRY_MS,
    providers: webhookProvidersFrom(rt.config),
    unsubscribeSecret: rt.config.UNSUBSCRIBE_SECRET,
    trackingSecret: rt.config.TRACKING_SECRET,
    bodyLimit: rt.config.INGEST_BODY_LIMIT_BYTES,
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  const where = { host: rt.config.INGEST_HOST, port: rt.config.INGEST_PORT };
  await listenNamed('INGEST_PORT', where, () => app.listen(where));
  if (notifier && crm) {
    notifier.start();
    rt.shutdown.addFirst('crm notifier', async () => {
      await notifier.stop();
      await crm.close();
    });
  }
  rt.shutdown.addFirst('ingest http', () => app.close());
  return app;
}
