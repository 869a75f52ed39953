/** @touchbase/sender: takes due touches and sends them through the provider. */
export { buildSender, buildSenderWorkers, type SenderDeps, senderWorkerFactory } from './app.js';
export { createSendTouchProcessor, type SendOutcome } from './processors/send-touch.processor.js';
export { startSender } from './start.js';
