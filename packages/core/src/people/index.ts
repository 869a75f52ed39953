export * from './company-domain.js';
export * from './company-stop.js';
export * from './consent.js';
export * from './prospect-identity.js';
export * from './prospect-merge.js';
export * from './contact-policies.js';
export * from './policies-patch.js';
export * from './sequence-policies.js';
