// The MongoDB adapter of the store port, and GridFS blobs: the distributed mode's storage (docs/adr/0001-store.md).
export { MongoStore, databaseNameFromUrl, type MongoStoreOptions } from './mongodb.js';
export { GridFsBlobStore } from './gridfs.js';
