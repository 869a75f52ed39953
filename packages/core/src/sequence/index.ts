export * from './sequence-definition.js';
export * from './touch-content.js';
