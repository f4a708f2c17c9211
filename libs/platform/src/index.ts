// Public surface of the platform. Each part owns its folder and its index.ts.
export * from './errors/index.js';
export * from './config/index.js';
export * from './log/index.js';
export * from './store/index.js';
export * from './bus/index.js';
export * from './jobs/index.js';
export * from './http/index.js';
export * from './runtime/index.js';
export * from './ratelimit/index.js';
export * from './fetch/index.js';
export * from './time/index.js';
export * from './pagination/index.js';
export * from './ids/index.js';
export * from './mail/index.js';
export * from './sanitize/index.js';
export * from './blobs/index.js';
export * from './outbox/index.js';
