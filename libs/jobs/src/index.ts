export * from './jobs/index.js';
export * from './outbox/index.js';
