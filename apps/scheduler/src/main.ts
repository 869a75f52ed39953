import { runService } from '@touchbase/runtime';
import { startScheduler } from './start.js';

/** The scheduler service alone: `node --import tsx apps/scheduler/src/main.ts`. */
await runService('scheduler', startScheduler);
