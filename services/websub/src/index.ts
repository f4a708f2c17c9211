// The websub service: a WebSub hub for Murmur's public feeds (and the topics of publishers the
// operator allows) — subscriptions with intent verification and leases, and delivery of each new
// document to every subscriber, signed when the subscriber gave a secret.
import { type Resolver } from '@murmur/fetch';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildWebsubApp } from './app.js';
import { wireBus } from './bus.js';
import { feedsOriginOf, hubUrlOf, websubConfigSchema, type WebsubConfig } from './config.js';
import type { WebsubContext } from './domain/context.js';
import { ownFeedsAt, type OwnFeeds } from './domain/own-feeds.js';
import { registerWebsubJobs } from './jobs/index.js';
import { WebsubStore } from './store.js';

export { websubConfigSchema, hubUrlOf, type WebsubConfig } from './config.js';
export { WebsubStore } from './store.js';
export type { WebsubContext } from './domain/context.js';
export { signatureOf } from './domain/deliver.js';

export interface WebsubServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
  /** Where Murmur's own feeds are read, instead of WEBSUB_FEEDS_ORIGIN (tests, the benchmark). */
  ownFeeds?: OwnFeeds;
  /** Receives the context once built (tests and the benchmark observe the store through it). */
  onContext?: (ctx: WebsubContext) => void;
}

export function createWebsubService(options: WebsubServiceOptions = {}): ServiceDefinition<WebsubConfig> {
  return defineService({
    name: 'websub',
    config: websubConfigSchema,
    jobs: (config) => ({
      backoffBaseMs: config.WEBSUB_RETRY_BASE_MS,
      pollIntervalMs: options.jobPollIntervalMs,
    }),
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new WebsubStore(rt.store);
      await store.createIndexes();
      const ownFeeds = options.ownFeeds ?? ownFeedsAt(feedsOriginOf(config));
      rt.onStop('feeds reader', async () => ownFeeds.close?.());
      const ctx: WebsubContext = {
        config,
        logger,
        store,
        bus,
        jobs,
        fetcher: rt.fetcher({ lookup: options.lookup }),
        ownFeeds,
        clock,
        hubUrl: hubUrlOf(config),
        contentCache: new Map(),
      };
      options.onContext?.(ctx);
      return ctx;
    },
    registerJobs: (ctx, jobs) => registerWebsubJobs(jobs, ctx),
    app: buildWebsubApp,
    wireBus,
  });
}

export const websubService = createWebsubService();
