export * from './canonical-event.js';
export * from './event-effect.js';
