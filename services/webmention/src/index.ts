// The webmention service: receives webmentions for users' sites and posts, verifies them in the
// background, answers GET /webmention in three formats, lets users and the operator moderate, and
// sends webmentions for Murmur's own posts.
import {
  createLimits,
  createOutbox,
  createSafeFetcher,
  JobQueue,
  outboundPolicyFromConfig,
  type Resolver,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
import { buildWebmentionApp } from './app.js';
import { wireBus } from './bus.js';
import { webmentionConfigSchema, type WebmentionConfig } from './config.js';
import type { WebmentionContext } from './domain/context.js';
import { HostTurns } from './domain/host-turns.js';
import { ResponseCache } from './domain/response-cache.js';
import { registerWebmentionJobs } from './jobs/index.js';
import { WebmentionStore } from './store/index.js';

export { webmentionConfigSchema, type WebmentionConfig } from './config.js';
export { WebmentionStore } from './store/index.js';

export interface WebmentionServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Base of the retry backoff (tests shorten it). Default 5 s. */
  jobBackoffBaseMs?: number;
  /** false: jobs are queued but no worker runs in this process (tests of the queue). Default true. */
  runJobs?: boolean;
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
  /** How often the outbox relays (tests shorten it). Default 500 ms. */
  outboxPollIntervalMs?: number;
}

export function createWebmentionService(
  options: WebmentionServiceOptions = {},
): ServiceDefinition<WebmentionConfig> {
  return {
    name: 'webmention',
    configSchema: webmentionConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const wmStore = new WebmentionStore(store);
      await wmStore.createIndexes();
      const jobs = new JobQueue(store, {
        service: 'webmention',
        logger,
        clock,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
        ...(options.jobBackoffBaseMs === undefined ? {} : { backoffBaseMs: options.jobBackoffBaseMs }),
      });
      const fetcher = createSafeFetcher({
        policy: outboundPolicyFromConfig(config),
        baseUrl: config.PUBLIC_URL,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      const outbox = createOutbox({
        store,
        bus,
        logger,
        service: 'webmention',
        now: () => clock.now(),
        ...(options.outboxPollIntervalMs === undefined
          ? {}
          : { pollIntervalMs: options.outboxPollIntervalMs }),
      });
      const ctx: WebmentionContext = {
        config,
        logger,
        store: wmStore,
        bus,
        outbox,
        jobs,
        fetcher,
        clock,
        limits: createLimits(store, clock, {
          perSourceHost: { max: config.WEBMENTION_PER_SOURCE_HOST_PER_HOUR, windowMs: 3_600_000 },
        }),
        responses: new ResponseCache(),
        hostTurns: new HostTurns(),
      };
      registerWebmentionJobs(jobs, ctx);
      const app = await buildWebmentionApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          await outbox.start();
          subscriptions = await wireBus(ctx);
          if (options.runJobs !== false) await jobs.start();
        },
        async stop() {
          if (options.runJobs !== false) await jobs.stop();
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
          await outbox.stop();
          await fetcher.close();
        },
      };
    },
  };
}

export const webmentionService = createWebmentionService();
