// What every domain function receives: configuration, the store's named queries, the bus, the job
// queue, the safe fetcher (callbacks and external topics), the reader of Murmur's own feeds, the
// limits and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { SafeFetcher } from '@murmur/fetch';
import type { JobQueue } from '@murmur/jobs';
import type { WebsubConfig } from '../config.js';
import type { WebsubStore } from '../store.js';
import type { OwnFeeds } from './own-feeds.js';

export interface WebsubContext {
  config: WebsubConfig;
  logger: Logger;
  store: WebsubStore;
  bus: Bus;
  jobs: JobQueue;
  /** Every request to a URL a client gave us (callbacks, external topics) goes through it. */
  fetcher: SafeFetcher;
  /** Reads Murmur's own public feeds from the gateway (WEBSUB_FEEDS_ORIGIN). */
  ownFeeds: OwnFeeds;
  clock: Clock;
  /** The hub's URL (the `rel="hub"` of deliveries and verification). */
  hubUrl: string;
  /** Delivered bodies by content id (per process: a host job reads its content once). */
  contentCache: Map<string, { body: Buffer; contentType: string; topic: string }>;
}
