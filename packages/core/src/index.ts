/**
 * @touchbase/core: the domain, pure and without I/O.
 */
export * from './sequence/index.js';
