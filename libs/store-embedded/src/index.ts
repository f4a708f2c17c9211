// The embedded store (docs/adr/0017-embedded-store-sqlite.md): SQLite documents and indexes, file and memory blobs.
export { EmbeddedStore, type EmbeddedStoreOptions, type EmbeddedLocation } from './embedded.js';
export { StoreLockedError } from './embedded-lock.js';
export { StoreMigrationError } from './sqlite-migrate.js';
export { SQLITE_FILE } from './sqlite-file.js';
export { documentsExamined } from './sqlite-collection.js';
export { FileBlobStore } from './file-blobs.js';
export { MemoryBlobStore } from './memory-blobs.js';
