// What the domain functions work with. Built once per service instance (index.ts).
import type { BlobStore, Bus, JobQueue, Logger, StoreRateLimiter } from '@murmur/platform';
import type { PublishingConfig } from '../config.js';
import type { PublishingStore } from '../store.js';

export interface PublishingLimits {
  /** Failed XML-RPC logins per (login, client address). */
  failedLogins: StoreRateLimiter;
  /** XML-RPC calls per user. */
  calls: StoreRateLimiter;
}

export interface PublishingContext {
  config: PublishingConfig;
  store: PublishingStore;
  blobs: BlobStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  limits: PublishingLimits;
}

/** Headers to carry on bus messages, so the request id travels with them. */
export type BusHeaders = Record<string, string>;

/** The authenticated user of an XML-RPC call. */
export interface Caller {
  userId: number;
  username: string;
}
