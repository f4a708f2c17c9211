// The feeds service: the follow graph, and JSON Feeds (timelines, mentions, webmentions, photos,
// blogroll, private bookmark and read-later queues) built from event-fed copies of posts.
import {
  createOutbox,
  createSafeFetcher,
  JobQueue,
  outboundPolicyFromConfig,
  type Resolver,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
import { buildFeedsApp } from './app.js';
import { wireBus } from './bus.js';
import { feedsConfigSchema, type FeedsConfig } from './config.js';
import { loadIndex } from './domain/copies.js';
import type { FeedsContext } from './domain/context.js';
import { registerFollowVerifier } from './domain/follows.js';
import { FollowingCache } from './domain/following-cache.js';
import { PendingPosts } from './domain/pending-posts.js';
import { PostIndex } from './domain/post-index.js';
import { createSaveLimiter } from './domain/saves.js';
import { registerFeedsJobs } from './jobs/index.js';
import { FeedsStore } from './store/index.js';

export { feedsConfigSchema, type FeedsConfig } from './config.js';
export { FeedsStore } from './store/index.js';

export interface FeedsServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
}

export function createFeedsService(options: FeedsServiceOptions = {}): ServiceDefinition<FeedsConfig> {
  return {
    name: 'feeds',
    configSchema: feedsConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const feedsStore = new FeedsStore(store);
      await feedsStore.createIndexes();
      const jobs = new JobQueue(store, {
        service: 'feeds',
        logger,
        clock,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
      });
      const fetcher = createSafeFetcher({
        policy: outboundPolicyFromConfig(config),
        baseUrl: config.PUBLIC_URL,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      const outbox = createOutbox({ store, bus, logger, service: 'feeds', now: () => clock.now() });
      const ctx: FeedsContext = {
        config,
        logger,
        store: feedsStore,
        bus,
        jobs,
        outbox,
        fetcher,
        clock,
        index: new PostIndex(),
        pending: new PendingPosts(),
        following: new FollowingCache(config.FEEDS_FOLLOWING_CACHE_USERS),
        profiles: { rev: 0 },
        startedAt: clock.now(),
        saveLimiter: createSaveLimiter(store, config.FEEDS_SAVES_PER_MINUTE),
      };
      registerFeedsJobs(jobs, ctx);
      registerFollowVerifier(ctx);
      await loadIndex(ctx);
      logger.info({ posts: ctx.index.size }, 'post index loaded');
      const app = await buildFeedsApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = await wireBus(ctx);
          await outbox.start();
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          await outbox.stop();
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
          await fetcher.close();
        },
      };
    },
  };
}

export const feedsService = createFeedsService();
