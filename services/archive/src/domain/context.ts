// What every domain function receives: configuration, the store's named queries, the blob store
// holding uploads until their import has run, the bus, the job queue, the read models and the clock.
import type { BlobStore, Bus, Clock, JobQueue, Logger } from '@murmur/platform';
import type { ArchiveConfig } from '../config.js';
import type { ArchiveStore } from '../store/index.js';
import type { SiteIndexCache } from './site-index.js';

export interface ArchiveContext {
  config: ArchiveConfig;
  logger: Logger;
  store: ArchiveStore;
  blobs: BlobStore;
  bus: Bus;
  jobs: JobQueue;
  clock: Clock;
  indexes: SiteIndexCache;
}
