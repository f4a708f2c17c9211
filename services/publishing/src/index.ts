// The publishing service: sites, posts, pages, categories and media, managed by blog editors over XML-RPC
// and shown on the web as h-entry pages and feeds.
import { JobQueue, openBlobStore, type ServiceDefinition, type Subscription } from '@murmur/platform';
import { buildPublishingApp } from './app.js';
import { publishingConfigSchema, type PublishingConfig } from './config.js';
import { createLimits } from './domain/auth.js';
import type { PublishingContext } from './domain/context.js';
import { PUBLISH_SCHEDULED_JOB, publishScheduledPost, type ScheduledPostJob } from './domain/post-events.js';
import { subscribeToIdentity } from './domain/subscriptions.js';
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
    async create({ config, logger, store, bus }) {
      const publishingStore = new PublishingStore(store);
      await publishingStore.createIndexes();
      // Media live beside the documents, chosen by the same URL (files, GridFS, or memory in tests).
      const blobs = await openBlobStore(config.STORE_URL, { service: 'publishing' });
      const jobs = new JobQueue(store, {
        service: 'publishing',
        logger,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
      });
      const ctx: PublishingContext = {
        config,
        store: publishingStore,
        blobs,
        bus,
        jobs,
        logger,
        limits: createLimits(store, config),
      };
      jobs.register<ScheduledPostJob>(
        PUBLISH_SCHEDULED_JOB,
        (payload) => publishScheduledPost(ctx, payload),
        {
          concurrency: 2,
        },
      );
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
          subscriptions = await subscribeToIdentity(ctx);
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          for (const subscription of subscriptions) await subscription.unsubscribe();
          await blobs.close();
        },
      };
    },
  };
}

export const publishingService = createPublishingService();
