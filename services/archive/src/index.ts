// The archive service: imported archives of sites' posts (a blog moved from elsewhere), served as
// public JSON Feeds — recent posts, search, years and months — and filled by imports of JSON Feed,
// blog-archive ZIP and WordPress WXR files (docs/api/archive.md).
import { JobQueue, openBlobStore, type ServiceDefinition, type Subscription } from '@murmur/platform';
import { buildArchiveApp } from './app.js';
import { wireBus } from './bus.js';
import { archiveConfigSchema, type ArchiveConfig } from './config.js';
import type { ArchiveContext } from './domain/context.js';
import { SiteIndexCache } from './domain/site-index.js';
import { registerArchiveJobs } from './jobs/index.js';
import { ArchiveStore } from './store/index.js';

export { archiveConfigSchema, type ArchiveConfig } from './config.js';
export { ArchiveStore } from './store/index.js';

export interface ArchiveServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Where uploads wait for their job: defaults to the store's URL (file: → files under DATA_DIR). */
  blobUrl?: string;
}

export function createArchiveService(options: ArchiveServiceOptions = {}): ServiceDefinition<ArchiveConfig> {
  return {
    name: 'archive',
    configSchema: archiveConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const archiveStore = new ArchiveStore(store);
      await archiveStore.createIndexes();
      const blobs = await openBlobStore(options.blobUrl ?? config.STORE_URL, { service: 'archive' });
      const jobs = new JobQueue(store, {
        service: 'archive',
        logger,
        clock,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
      });
      const ctx: ArchiveContext = {
        config,
        logger,
        store: archiveStore,
        blobs,
        bus,
        jobs,
        clock,
        indexes: new SiteIndexCache(config.ARCHIVE_INDEX_MAX_POSTS),
      };
      registerArchiveJobs(jobs, ctx);
      const app = await buildArchiveApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = await wireBus(ctx);
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
          await blobs.close();
        },
      };
    },
  };
}

export const archiveService = createArchiveService();
