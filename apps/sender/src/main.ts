import { runService } from '@touchbase/runtime';
import { startSender } from './start.js';

/** The sender service alone: `node --import tsx apps/sender/src/main.ts`. */
await runService('sender', startSender);
