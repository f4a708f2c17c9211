// The publishing service: sites, posts, pages, categories and media, managed by blog editors over XML-RPC
// and shown on the web as h-entry pages and feeds.
import {
  createLimits,
  createOutbox,
  JobQueue,
  openBlobStore,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
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
  return {
    name: 'publishing',
    configSchema: publishingConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const publishingStore = new PublishingStore(store);
      await publishingStore.createIndexes();
      // Media live beside the documents, chosen by the same URL (files, GridFS, or memory in tests).
      const blobs = await openBlobStore(config.STORE_URL, { service: 'publishing' });
      const jobs = new JobQueue(store, {
        service: 'publishing',
        logger,
        clock,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
      });
      // The relay's retries and retention run on real time: a test clock that stands still must not
      // hold back delivery.
      const outbox = createOutbox({ store, bus, logger, service: 'publishing' });
      const ctx: PublishingContext = {
        config,
        store: publishingStore,
        blobs,
        bus,
        jobs,
        logger,
        clock,
        outbox,
        limits: createLimits(store, clock, {
          'xmlrpc-calls': { max: config.XMLRPC_CALLS_PER_MINUTE, windowMs: 60_000 },
        }),
      };
      registerPublishingJobs(jobs, ctx);
      let app;
      try {
        app = await buildPublishingApp(ctx, store);
      } catch (err) {
        await blobs.close();
        throw err;
      }

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          await outbox.start();
          subscriptions = await wireBus(ctx);
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          for (const subscription of subscriptions) await subscription.unsubscribe();
          await outbox.stop();
          await blobs.close();
        },
      };
    },
  };
}

export const publishingService = createPublishingService();
