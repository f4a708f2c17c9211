// Blobs: named byte objects (uploaded media) in the service's own storage, chosen by STORE_URL.
export * from './port.js';
export { openBlobStore, type OpenBlobStoreOptions } from './open.js';
export { FileBlobStore } from './file.js';
export { MemoryBlobStore } from './memory.js';
export type { GridFsBlobStore } from './gridfs.js';
