export * from './company-domain.js';
export * from './company-stop.js';
export * from './contact-policies.js';
export * from './policies-patch.js';
export * from './sequence-policies.js';
