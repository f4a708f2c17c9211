// What the reader's domain functions work with. Built once per service instance (index.ts).
import type { Bus } from '@murmur/bus';
import type { Logger } from '@murmur/core';
import type { SafeFetcher } from '@murmur/fetch';
import type { JobQueue } from '@murmur/jobs';
import type { ReaderConfig } from '../config.js';
import type { FeedFetcher } from '../feeds/fetcher.js';
import type { FeedParsing } from '../feeds/parsing.js';
import type { ReaderStore } from '../store/index.js';
import type { ReaderClock } from './clock.js';
import type { ExtractLinks } from './extract-links.js';
import type { UserStates } from './states.js';
import type { Summariser } from './summariser.js';
import type { UserViews } from './views.js';

export interface ReaderContext {
  config: ReaderConfig;
  store: ReaderStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  /** Microsecond stamps and the `Date` header, on the process's injected clock. */
  clock: ReaderClock;
  states: UserStates;
  views: UserViews;
  /** Feeds, discovery and icons: the safe fetcher behind a per-host limit. */
  fetcher: FeedFetcher;
  /** Parsing fetched bodies and deriving entries: on the event loop, or a thread (READER_PARSE_THREAD). */
  parsing: FeedParsing;
  /** The same safe fetcher, for the operator-configured summariser (no host limit). */
  rawFetcher: SafeFetcher;
  /** Null unless the operator configured READER_LLM_URL. */
  summariser: Summariser | null;
  /** Signs `extracted_content_url`s; null when READER_EXTRACTED_CONTENT is off. */
  extractLinks: ExtractLinks | null;
}
