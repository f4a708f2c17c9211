// Every job of the reader, registered on the service's queue. Job names never change once deployed;
// a renamed job lists its old name in `formerNames`, so jobs queued before an upgrade still run.
import { registerJobs } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { refreshIconJobDefinition } from './icons.js';
import { importOpmlJobDefinition } from './import.js';
import { recapBuildJobDefinition } from './recap-build.js';
import { recapEmailJob } from './recap-email.js';
import { refreshFeedJobDefinition } from './refresh.js';
import { webSubSubscribeJobDefinition, webSubUnsubscribeJobDefinition } from './websub.js';

export function registerReaderJobs(ctx: ReaderContext): void {
  registerJobs(ctx.jobs, ctx, [
    {
      ...refreshFeedJobDefinition,
      options: { ...refreshFeedJobDefinition.options, concurrency: ctx.config.READER_POLL_CONCURRENCY },
    },
    refreshIconJobDefinition,
    recapBuildJobDefinition,
    recapEmailJob,
    importOpmlJobDefinition,
    webSubSubscribeJobDefinition,
    webSubUnsubscribeJobDefinition,
  ]);
}
