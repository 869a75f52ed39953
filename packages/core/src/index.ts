/**
 * @touchbase/core: the domain, pure and without I/O. Time and ids come in as
 * arguments, so everything here is tested without services.
 */
export { MicroBatcher } from './batch/micro-batcher.js';
export * from './classify/index.js';
export { normalisedEmail } from './contact/email-address.js';
export * from './contact/suppression-keys.js';
export * from './domain-health/index.js';
export * from './enrollment/index.js';
export * from './errors/domain-error.js';
export * from './events/index.js';
export * from './linkedin/index.js';
export * from './people/index.js';
export { seededRandom } from './random/seeded-random.js';
export * from './schedule/index.js';
export * from './sequence/index.js';
export * from './stats/index.js';
export * from './templates/index.js';
export * from './text/index.js';
export * from './time/index.js';
export * from './tracking/index.js';
export * from './waiting/index.js';
