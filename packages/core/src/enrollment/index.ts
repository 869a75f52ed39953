export * from './enrollment-status.js';
export * from './idempotency-key.js';
export * from './operator-pause.js';
export * from './touch-retention.js';
