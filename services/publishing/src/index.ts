// The publishing service: sites, posts, pages, categories and media, managed by blog editors over XML-RPC
// and shown on the web as h-entry pages and feeds.
import { createLimits } from '@murmur/http';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildPublishingApp } from './app.js';
import { wireBus } from './bus.js';
import { publishingConfigSchema, type PublishingConfig } from './config.js';
import type { PublishingContext } from './domain/context.js';
import { registerPublishingJobs } from './jobs/index.js';
import { PublishingStore } from './store.js';

export { publishingConfigSchema, type PublishingConfig } from './config.js';

export interface PublishingServiceOptions {
  /** How often the job queue looks for due scheduled posts (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
}

export function createPublishingService(
  options: PublishingServiceOptions = {},
): ServiceDefinition<PublishingConfig> {
  return defineService({
    name: 'publishing',
    config: publishingConfigSchema,
    jobs: { pollIntervalMs: options.jobPollIntervalMs },
    // The relay's retries and retention run on real time: a test clock that stands still must not
    // hold back delivery.
    outbox: {},
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new PublishingStore(rt.store);
      await store.createIndexes();
      return {
        config,
        store,
        // Media live beside the documents, chosen by the same URL (files, GridFS, or memory in tests).
        blobs: await rt.blobs(),
        bus,
        jobs,
        logger,
        clock,
        outbox: rt.outbox,
        limits: createLimits(rt.store, clock, {
          'xmlrpc-calls': { max: config.XMLRPC_CALLS_PER_MINUTE, windowMs: 60_000 },
        }),
      } satisfies PublishingContext;
    },
    registerJobs: (ctx, jobs) => registerPublishingJobs(jobs, ctx),
    app: buildPublishingApp,
    wireBus,
  });
}

export const publishingService = createPublishingService();
