// What every domain function receives: configuration, the store's named queries, the bus, the job
// queue, the safe fetcher, the in-memory read model and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { ParserThread, SafeFetcher } from '@murmur/fetch';
import type { StoreRateLimiter } from '@murmur/http';
import type { JobQueue, Outbox } from '@murmur/jobs';
import type { FeedsConfig } from '../config.js';
import type { FeedsStore } from '../store/index.js';
import type { FollowingCache } from './following-cache.js';
import type { PendingPosts } from './pending-posts.js';
import type { PostIndex } from './post-index.js';

export interface FeedsContext {
  config: FeedsConfig;
  logger: Logger;
  store: FeedsStore;
  bus: Bus;
  jobs: JobQueue;
  /** Events recorded with the state they announce, relayed to the bus until acknowledged. */
  outbox: Outbox;
  fetcher: SafeFetcher;
  clock: Clock;
  index: PostIndex;
  /** Documents of indexed posts the store may not hold yet (pending-posts.ts). */
  pending: PendingPosts;
  following: FollowingCache;
  /** Newest revision of any user or site copy: profile changes alter every feed's author cards. */
  profiles: { rev: number };
  /** When this process started: the Last-Modified of a feed that never changed. */
  startedAt: Date;
  /** Bookmarks and read-later saves per user per minute. */
  saveLimiter: StoreRateLimiter;
  /** Runs domain/page-tasks.ts (article extraction) off the event loop, with a time budget. */
  parser: ParserThread;
}
