export * from './next-touch-due.js';
