import { runService } from '@touchbase/runtime';
import { startIngest } from './start.js';

/** The ingest service alone: `node --import tsx apps/ingest/src/main.ts`. */
await runService('ingest', startIngest);
