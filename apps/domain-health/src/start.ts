import type { Runtime } from '@touchbase/runtime';
import { buildAlertChannels } from './alerts/alert-channels.js';
import { buildDomainHealth } from './app.js';

/** Starts domain-health on a runtime and registers its shutdown (workers first). */
export async function startDomainHealth(rt: Runtime) {
  const c = rt.config;
  const logger = rt.logger.child({ service: 'domain-health' });
  const dh = await buildDomainHealth({
    repos: rt.repos,
    touchQueue: rt.touchQueue,
    logger,
    metrics: rt.metrics,
    settings: {
      bounceThreshold: c.DOMAIN_HEALTH_BOUNCE_THRESHOLD,
      bounceWarnRatio: c.DOMAIN_HEALTH_BOUNCE_WARN_RATIO,
      minSends: c.DOMAIN_HEALTH_MIN_SENDS,
      complaintAlert: c.DOMAIN_HEALTH_COMPLAINT_ALERT_THRESHOLD,
      complaintPause: c.DOMAIN_HEALTH_COMPLAINT_PAUSE_THRESHOLD,
      complaintMinSends: c.DOMAIN_HEALTH_COMPLAINT_MIN_SENDS,
      windowDays: c.DOMAIN_HEALTH_WINDOW_DAYS,
      completionFloor: c.DOMAIN_HEALTH_COMPLETION_FLOOR,
      completionMinEnded: c.DOMAIN_HEALTH_COMPLETION_MIN_ENDED,
    },
    holdInFlight: c.DOMAIN_HEALTH_HOLD_IN_FLIGHT,
    accountGuard: c.DOMAIN_HEALTH_ACCOUNT_GUARD,
    autoResumeAfterMs: c.DOMAIN_HEALTH_AUTO_RESUME_AFTER_MS,
    timeScale: c.TIME_SCALE,
    doNotContact: rt.doNotContact,
    channels: buildAlertChannels(c, logger),
    publicBaseUrl: c.PUBLIC_BASE_URL,
    connection: rt.redis.worker,
    producer: rt.redis.producer,
    prefix: rt.queueLayout,
    everyMs: c.DOMAIN_HEALTH_INTERVAL_MS,
  });
  rt.shutdown.addFirst('domain-health workers', () => dh.close());
  return dh;
}
