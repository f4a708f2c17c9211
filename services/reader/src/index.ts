// The reader service: the hosted feed reader (Feedbin-style API), feed polling, highlights and recaps.
import {
  ConcurrencyLimit,
  createSafeFetcher,
  JobQueue,
  outboundPolicyFromConfig,
  type Resolver,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
import { buildReaderApp } from './app.js';
import { wireBus } from './bus.js';
import { readerConfigSchema, type ReaderConfig } from './config.js';
import { ReaderClock } from './domain/clock.js';
import type { ReaderContext } from './domain/context.js';
import { UserStates } from './domain/states.js';
import { ExtractLinks } from './domain/extracts.js';
import { createLlmSummariser } from './domain/summariser.js';
import { UserViews } from './domain/views.js';
import { FeedFetcher } from './feeds/fetcher.js';
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
  return {
    name: 'reader',
    configSchema: readerConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const readerStore = new ReaderStore(store);
      await readerStore.createIndexes();
      const readerClock = new ReaderClock(clock);
      const jobs = new JobQueue(store, {
        service: 'reader',
        logger,
        clock,
        pollIntervalMs: options.jobPollIntervalMs,
        doneRetentionMs: DONE_JOB_RETENTION_MS,
      });
      const rawFetcher = createSafeFetcher({
        policy: outboundPolicyFromConfig(config),
        baseUrl: config.PUBLIC_URL,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      const states = new UserStates(readerStore, () => readerClock.nowDate());
      const ctx: ReaderContext = {
        config,
        store: readerStore,
        bus,
        jobs,
        logger,
        clock: readerClock,
        states,
        views: new UserViews(readerStore, states, config.READER_VIEW_CACHE_USERS),
        fetcher: new FeedFetcher(rawFetcher, new ConcurrencyLimit(config.READER_FETCH_PER_HOST)),
        rawFetcher,
        summariser: createLlmSummariser(config, rawFetcher, logger),
        extractLinks: config.READER_EXTRACTED_CONTENT
          ? await ExtractLinks.open(readerStore, config.PUBLIC_URL)
          : null,
      };
      registerReaderJobs(ctx);
      const app = await buildReaderApp(ctx, store, clock);
      const scheduler = new Scheduler(ctx, options.schedulerIntervalMs ?? 30_000);
      options.onContext?.(ctx);

      let answering: Subscription[] = [];
      return {
        app,
        async start() {
          answering = await wireBus(ctx);
          await jobs.start();
          scheduler.start();
        },
        async stop() {
          await scheduler.stop();
          await jobs.stop();
          await Promise.all(answering.map((s) => s.unsubscribe()));
          await rawFetcher.close();
        },
      };
    },
  };
}

export const readerService = createReaderService();
