// The archive service: imported archives of sites' posts (a blog moved from elsewhere), served as
// public JSON Feeds — recent posts, search, years and months — and filled by imports of JSON Feed,
// blog-archive ZIP and WordPress WXR files (docs/api/archive.md).
import { defineService, type ServiceDefinition } from '@murmur/runtime';
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
  return defineService({
    name: 'archive',
    config: archiveConfigSchema,
    jobs: { pollIntervalMs: options.jobPollIntervalMs },
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new ArchiveStore(rt.store);
      await store.createIndexes();
      return {
        config,
        logger,
        store,
        blobs: await rt.blobs(options.blobUrl ? { url: options.blobUrl } : {}),
        bus,
        jobs,
        clock,
        indexes: new SiteIndexCache(config.ARCHIVE_INDEX_MAX_POSTS),
      } satisfies ArchiveContext;
    },
    registerJobs: (ctx, jobs) => registerArchiveJobs(jobs, ctx),
    app: buildArchiveApp,
    wireBus,
  });
}

export const archiveService = createArchiveService();
