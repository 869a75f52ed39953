import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { startDomainHealth } from './start.js';

/** Domain-health alone: `tsx apps/domain-health/src/main.ts`. */
const config = loadRuntimeConfig();
const rt = await openRuntime({ name: 'domain-health', config });
await startDomainHealth(rt);
rt.shutdown.onSignals();
rt.logger.info({ everyMs: config.DOMAIN_HEALTH_INTERVAL_MS }, 'Domain health started');
