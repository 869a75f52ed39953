import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { startSender } from './start.js';

/** The sender alone: `tsx apps/sender/src/main.ts`. */
const config = loadRuntimeConfig();
const rt = await openRuntime({ name: 'sender', config });
startSender(rt);
rt.shutdown.onSignals();
rt.logger.info({ concurrency: config.SENDER_CONCURRENCY }, 'Sender started');
