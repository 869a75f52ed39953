import { runService } from '@touchbase/runtime';
import { startApi } from './start.js';

/** The api service alone: `node --import tsx apps/api/src/main.ts`. */
await runService('api', startApi);
