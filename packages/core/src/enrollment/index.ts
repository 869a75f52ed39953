export * from './enrollment-status.js';
export * from './idempotency-key.js';
