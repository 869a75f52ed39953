export * from './tracked-html.js';
export * from './tracking-event.js';
export * from './tracking-token.js';
