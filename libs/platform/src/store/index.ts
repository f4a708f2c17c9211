// The store (docs/adr/0001-store.md): one port, two adapters chosen by URL, integer id counters.
export * from './port.js';
export { openStore, type OpenStoreOptions } from './open.js';
export { nextId, reserveIds } from './counters.js';
export { EmbeddedStore, type EmbeddedStoreOptions, type EmbeddedLocation } from './embedded.js';
export type { MongoStore, MongoStoreOptions, StoreLogger } from './mongodb.js';
export { StoreLockedError } from './embedded-lock.js';
export { StoreMigrationError } from './sqlite-migrate.js';
