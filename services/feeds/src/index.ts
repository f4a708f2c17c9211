// The feeds service: the follow graph, and JSON Feeds (timelines, mentions, webmentions, photos,
// blogroll, private bookmark and read-later queues) built from event-fed copies of posts.
import { ParserThread, taskModuleUrl, type Resolver } from '@murmur/fetch';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildFeedsApp } from './app.js';
import { wireBus } from './bus.js';
import { feedsConfigSchema, type FeedsConfig } from './config.js';
import { loadIndex } from './domain/copies.js';
import type { FeedsContext } from './domain/context.js';
import { registerFollowVerifier } from './domain/follows.js';
import { FollowingCache } from './domain/following-cache.js';
import { PendingPosts } from './domain/pending-posts.js';
import { PostIndex } from './domain/post-index.js';
import { ARTICLE_PARSE_TIMEOUT_MS } from './domain/pages.js';
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
  /** CPU time one article extraction may take (tests shorten it). Default ARTICLE_PARSE_TIMEOUT_MS. */
  articleParseTimeoutMs?: number;
}

export function createFeedsService(options: FeedsServiceOptions = {}): ServiceDefinition<FeedsConfig> {
  return defineService({
    name: 'feeds',
    config: feedsConfigSchema,
    jobs: { pollIntervalMs: options.jobPollIntervalMs },
    outbox: (_config, clock) => ({ now: () => clock.now() }),
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new FeedsStore(rt.store);
      await store.createIndexes();
      const parser = new ParserThread({
        module: taskModuleUrl(import.meta.url, 0, 'domain/page-tasks.js'),
        timeoutMs: options.articleParseTimeoutMs ?? ARTICLE_PARSE_TIMEOUT_MS,
        maxHeapMb: 256,
      });
      rt.onStop('parser thread', () => parser.close());
      const ctx: FeedsContext = {
        config,
        logger,
        store,
        bus,
        jobs,
        outbox: rt.outbox,
        fetcher: rt.fetcher({ lookup: options.lookup }),
        clock,
        index: new PostIndex(),
        pending: new PendingPosts(),
        following: new FollowingCache(config.FEEDS_FOLLOWING_CACHE_USERS),
        profiles: { rev: 0 },
        startedAt: clock.now(),
        saveLimiter: createSaveLimiter(rt.store, config.FEEDS_SAVES_PER_MINUTE),
        parser,
      };
      registerFollowVerifier(ctx);
      await loadIndex(ctx);
      logger.info({ posts: ctx.index.size }, 'post index loaded');
      return ctx;
    },
    registerJobs: (ctx, jobs) => registerFeedsJobs(jobs, ctx),
    app: buildFeedsApp,
    wireBus,
  });
}

export const feedsService = createFeedsService();
