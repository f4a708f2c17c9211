// The store port (docs/adr/0001-store.md): the collection API both adapters implement with the same
// meaning, the errors they raise, integer id counters, and the blob port; no engine lives here.
export * from './blobs.js';
export * from './port.js';
export { nextId, reserveIds } from './counters.js';
export * from './adapter-rules.js';
export { BodyMeter, chunksOf, readAll } from './blob-body.js';
