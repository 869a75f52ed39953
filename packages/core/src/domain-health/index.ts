export * from './health-messages.js';
export * from './health-rules.js';
