import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { startIngest } from './start.js';

/** Ingest alone: `tsx apps/ingest/src/main.ts`. */
const config = loadRuntimeConfig();
const rt = await openRuntime({ name: 'ingest', config });
await startIngest(rt);
rt.shutdown.onSignals();
rt.logger.info({ port: config.INGEST_PORT }, 'Ingest listening');
