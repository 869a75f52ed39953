export * from './held-first-touch.js';
export * from './next-touch-due.js';
export * from './refit-due.js';
export * from './sending-window-of.js';
export * from './touch-timing.js';
