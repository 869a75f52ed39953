export * from './company-domain.js';
export * from './company-stop.js';
export * from './reactivation.js';
export * from './reactivation.schemas.js';
export * from './reply-actions.js';
export * from './reply-actions.schemas.js';
export * from './sequence-policies.js';
