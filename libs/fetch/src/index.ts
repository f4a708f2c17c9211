export * from './fetch/index.js';
export * from './sanitize/index.js';
export * from './read/index.js';
