export * from './company-domain.js';
