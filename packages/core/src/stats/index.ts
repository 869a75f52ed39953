/** Funnel arithmetic: rates over counts read by SQL. */
export * from './funnel-rates.js';
