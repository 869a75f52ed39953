export * from './edge-trigger.js';
export * from './graph-validation.js';
export * from './graph-walk.js';
export * from './sequence-definition.js';
export * from './sequence-graph.js';
export * from './sequence-version.js';
export * from './touch-content.js';
export * from './version-migration.js';
