export * from './canonical-event.js';
export * from './classified-event.js';
export * from './event-effect.js';
export * from './inbound-message.reader.js';
export * from './out-of-office.js';
