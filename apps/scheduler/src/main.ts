import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { startScheduler } from './start.js';

/** The scheduler alone: `tsx apps/scheduler/src/main.ts`. */
const config = loadRuntimeConfig();
const rt = await openRuntime({ name: 'scheduler', config });
await startScheduler(rt);
rt.shutdown.onSignals();
rt.logger.info({ everyMs: config.SCHEDULER_RECONCILE_INTERVAL_MS }, 'Scheduler started');
