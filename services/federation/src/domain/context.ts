// What every domain function receives: configuration, the store's named queries, the bus, the outbox,
// the job queue, the safe fetcher, the clock and the per-process caches of keys.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { SafeFetcher } from '@murmur/fetch';
import type { JobQueue, Outbox } from '@murmur/jobs';
import type { FederationConfig } from '../config.js';
import type { FederationStore } from '../store/index.js';
import type { KeyCache } from './keys.js';
import type { Urls } from './urls.js';

export interface FederationContext {
  config: FederationConfig;
  logger: Logger;
  store: FederationStore;
  bus: Bus;
  outbox: Outbox;
  jobs: JobQueue;
  fetcher: SafeFetcher;
  clock: Clock;
  /** Signing keys and verified remote keys, parsed once per process. */
  keys: KeyCache;
  urls: Urls;
}
