// What every domain function receives: configuration, the store's named queries, the blob store
// holding uploads until their import has run, the bus, the job queue, the read models and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { JobQueue } from '@murmur/jobs';
import type { BlobStore } from '@murmur/store';
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
