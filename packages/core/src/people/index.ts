export * from './company-domain.js';
export * from './company-stop.js';
export * from './sequence-policies.js';
