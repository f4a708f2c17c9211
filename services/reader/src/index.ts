// The reader service: the hosted feed reader (Feedbin-style API), feed polling, highlights and recaps.
import { ConcurrencyLimit } from '@murmur/core';
import type { Resolver } from '@murmur/fetch';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildReaderApp } from './app.js';
import { wireBus } from './bus.js';
import { readerConfigSchema, type ReaderConfig } from './config.js';
import { ReaderClock } from './domain/clock.js';
import type { ReaderContext } from './domain/context.js';
import { ExtractLinks } from './domain/extracts.js';
import { UserStates } from './domain/states.js';
import { createLlmSummariser } from './domain/summariser.js';
import { UserViews } from './domain/views.js';
import { FeedFetcher } from './feeds/fetcher.js';
import { parsingHere, ThreadParsing } from './feeds/parsing.js';
import { registerReaderJobs } from './jobs/index.js';
import { Scheduler } from './jobs/scheduler.js';
import { ReaderStore } from './store/index.js';

export { readerConfigSchema, type ReaderConfig } from './config.js';
export type { ReaderContext } from './domain/context.js';

export interface ReaderServiceOptions {
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
  /** How often due feeds and periodic work are queued; 0 turns the scheduler off. Default 30 s. */
  schedulerIntervalMs?: number;
  /** How often the job queue looks for due jobs. Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Called with the service's context once it is built (tests drive jobs and read state through it). */
  onContext?: (ctx: ReaderContext) => void;
}

/** Done jobs are many (one per feed poll) and never read again; keeping them an hour is plenty. */
const DONE_JOB_RETENTION_MS = 60 * 60_000;

export function createReaderService(options: ReaderServiceOptions = {}): ServiceDefinition<ReaderConfig> {
  return defineService({
    name: 'reader',
    config: readerConfigSchema,
    jobs: { pollIntervalMs: options.jobPollIntervalMs, doneRetentionMs: DONE_JOB_RETENTION_MS },
    async context(rt) {
      const { config, logger, bus, jobs } = rt;
      const store = new ReaderStore(rt.store);
      await store.createIndexes();
      const clock = new ReaderClock(rt.clock);
      const rawFetcher = rt.fetcher({ lookup: options.lookup });
      const states = new UserStates(store, () => clock.nowDate());
      const parsing = config.READER_PARSE_THREAD ? new ThreadParsing() : parsingHere;
      rt.onStop('parser thread', () => parsing.close());
      const ctx: ReaderContext = {
        config,
        store,
        bus,
        jobs,
        logger,
        clock,
        states,
        views: new UserViews(store, states, config.READER_VIEW_CACHE_USERS),
        fetcher: new FeedFetcher(rawFetcher, new ConcurrencyLimit(config.READER_FETCH_PER_HOST)),
        parsing,
        rawFetcher,
        summariser: createLlmSummariser(config, rawFetcher, logger),
        extractLinks: config.READER_EXTRACTED_CONTENT
          ? await ExtractLinks.open(store, config.PUBLIC_URL)
          : null,
      };
      options.onContext?.(ctx);
      return ctx;
    },
    registerJobs: registerReaderJobs,
    app: buildReaderApp,
    wireBus,
    workers: (ctx) => [new Scheduler(ctx, options.schedulerIntervalMs ?? 30_000)],
  });
}

export const readerService = createReaderService();
