import { runService } from '@touchbase/runtime';
import { startDomainHealth } from './start.js';

/** The domain-health service alone: `node --import tsx apps/domain-health/src/main.ts`. */
await runService('domain-health', startDomainHealth);
