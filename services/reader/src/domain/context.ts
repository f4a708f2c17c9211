// What the reader's domain functions work with. Built once per service instance (index.ts).
import type { Bus, JobQueue, Logger, SafeFetcher } from '@murmur/platform';
import type { ReaderConfig } from '../config.js';
import type { FeedFetcher } from '../feeds/fetcher.js';
import type { ReaderStore } from '../store.js';
import type { ReaderClock } from './clock.js';
import type { UserStates } from './states.js';
import type { Summariser } from './summariser.js';
import type { UserViews } from './views.js';

export interface ReaderContext {
  config: ReaderConfig;
  store: ReaderStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  clock: ReaderClock;
  states: UserStates;
  views: UserViews;
  /** Feeds, discovery and icons: the safe fetcher behind a per-host limit. */
  fetcher: FeedFetcher;
  /** The same safe fetcher, for the operator-configured summariser (no host limit). */
  rawFetcher: SafeFetcher;
  /** Null unless the operator configured READER_LLM_URL. */
  summariser: Summariser | null;
}

/** Headers to carry on bus messages, so the request id travels with them. */
export type BusHeaders = Record<string, string>;

export const JOB = {
  refresh: 'reader.feed.refresh',
  icon: 'reader.icon.refresh',
  recap: 'reader.recap.build',
  recapEmail: 'reader.recap.email',
  import: 'reader.opml.import',
} as const;
