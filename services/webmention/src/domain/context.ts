// What every domain function receives: configuration, the store's named queries, the bus, the outbox,
// the job queue, the safe fetcher, the store-backed limits and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { ParserThread, SafeFetcher } from '@murmur/fetch';
import type { Limits } from '@murmur/http';
import type { JobQueue, Outbox } from '@murmur/jobs';
import type { WebmentionConfig } from '../config.js';
import type { WebmentionStore } from '../store/index.js';
import type { HostTurns } from './host-turns.js';
import type { ResponseCache } from './response-cache.js';

/** The per-client-address limit is declared on the route (docs/platform.md, rate limits). */
export type LimitName = 'perSourceHost';

export interface WebmentionContext {
  config: WebmentionConfig;
  logger: Logger;
  store: WebmentionStore;
  bus: Bus;
  outbox: Outbox;
  jobs: JobQueue;
  fetcher: SafeFetcher;
  clock: Clock;
  limits: Limits<LimitName>;
  /** Rendered GET /webmention bodies by ETag. */
  responses: ResponseCache;
  /** One verification fetch per source host at a time. */
  hostTurns: HostTurns;
  /** Runs domain/parse-tasks.ts off the event loop, with a time budget. */
  parser: ParserThread;
}
