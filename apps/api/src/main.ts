import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { startApi } from './start.js';

/** The API alone: `tsx apps/api/src/main.ts`. */
const config = loadRuntimeConfig();
const rt = await openRuntime({ name: 'api', config });
await startApi(rt);
rt.shutdown.onSignals();
rt.logger.info({ port: config.API_PORT }, 'API listening');
