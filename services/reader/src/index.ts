// The reader service: the hosted feed reader (Feedbin-style API), feed polling, highlights and recaps.
import { reader } from '@murmur/contracts';
import {
  createSafeFetcher,
  JobQueue,
  outboundPolicyFromConfig,
  type Resolver,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
import { buildReaderApp } from './app.js';
import { readerConfigSchema, type ReaderConfig } from './config.js';
import { ReaderClock } from './domain/clock.js';
import { JOB, type ReaderContext } from './domain/context.js';
import { UserStates } from './domain/states.js';
import { createLlmSummariser } from './domain/summariser.js';
import { UserViews } from './domain/views.js';
import { FeedFetcher, HostLimiter } from './feeds/fetcher.js';
import { refreshIcon, type IconPayload } from './jobs/icons.js';
import { runImport, type ImportPayload } from './jobs/import.js';
import { buildRecap, sendWeeklyRecap, type RecapBuildPayload, type RecapEmailPayload } from './jobs/recap.js';
import { refreshFeed, type RefreshPayload } from './jobs/refresh.js';
import { Scheduler } from './jobs/scheduler.js';
import { ReaderAuthenticator } from './routes/auth.js';
import { ReaderStore } from './store.js';

export { readerConfigSchema, type ReaderConfig } from './config.js';
export type { ReaderContext } from './domain/context.js';

export interface ReaderServiceOptions {
  /** Wall clock in ms; tests move it forward instead of waiting. */
  now?: () => number;
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
    async create({ config, logger, store, bus }) {
      const readerStore = new ReaderStore(store);
      await readerStore.createIndexes();
      const clock = new ReaderClock(options.now);
      const jobs = new JobQueue(store, {
        service: 'reader',
        logger,
        pollIntervalMs: options.jobPollIntervalMs,
        doneRetentionMs: DONE_JOB_RETENTION_MS,
      });
      const rawFetcher = createSafeFetcher({
        policy: outboundPolicyFromConfig(config),
        baseUrl: config.PUBLIC_URL,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      const states = new UserStates(readerStore, () => clock.nowDate());
      const ctx: ReaderContext = {
        config,
        store: readerStore,
        bus,
        jobs,
        logger,
        clock,
        states,
        views: new UserViews(readerStore, states, config.READER_VIEW_CACHE_USERS),
        fetcher: new FeedFetcher(rawFetcher, new HostLimiter(config.READER_FETCH_PER_HOST)),
        rawFetcher,
        summariser: createLlmSummariser(config, rawFetcher, logger),
      };
      jobs.register<RefreshPayload>(JOB.refresh, async (p) => void (await refreshFeed(ctx, p.feedId)), {
        concurrency: config.READER_POLL_CONCURRENCY,
        leaseMs: 120_000,
      });
      jobs.register<IconPayload>(JOB.icon, (p) => refreshIcon(ctx, p), { concurrency: 2 });
      jobs.register<RecapBuildPayload>(JOB.recap, (p) => buildRecap(ctx, p), {
        concurrency: 2,
        leaseMs: 90_000,
      });
      jobs.register<RecapEmailPayload>(JOB.recapEmail, (p, job) => sendWeeklyRecap(ctx, p, job), {
        concurrency: 2,
      });
      jobs.register<ImportPayload>(JOB.import, (p) => runImport(ctx, p), { leaseMs: 120_000 });

      const authenticator = new ReaderAuthenticator(bus, logger);
      await authenticator.listen();
      const app = await buildReaderApp(ctx, store, authenticator);
      app.addHook('onClose', async () => authenticator.close());
      const scheduler = new Scheduler(ctx, options.schedulerIntervalMs ?? 30_000);
      options.onContext?.(ctx);

      let answering: Subscription | undefined;
      return {
        app,
        async start() {
          answering = await bus.handle(reader.recapCapabilities, async () => ({
            usingAi: ctx.summariser !== null,
          }));
          await jobs.start();
          scheduler.start();
        },
        async stop() {
          await answering?.unsubscribe();
          await scheduler.stop();
          await jobs.stop();
          await rawFetcher.close();
        },
      };
    },
  };
}

export const readerService = createReaderService();
