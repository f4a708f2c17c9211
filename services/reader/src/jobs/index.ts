// Every job of the reader, registered on the service's queue. Job names never change once deployed;
// a renamed job lists its old name in `formerNames`, so jobs queued before an upgrade still run.
import { registerJobs } from '@murmur/platform';
import type { ReaderContext } from '../domain/context.js';
import { refreshIconJob } from './icons.js';
import { importOpmlJob } from './import.js';
import { recapBuildJob } from './recap-build.js';
import { recapEmailJob } from './recap-email.js';
import { refreshFeedJob } from './refresh.js';

export function registerReaderJobs(ctx: ReaderContext): void {
  registerJobs(ctx.jobs, ctx, [
    {
      ...refreshFeedJob,
      options: { ...refreshFeedJob.options, concurrency: ctx.config.READER_POLL_CONCURRENCY },
    },
    refreshIconJob,
    recapBuildJob,
    recapEmailJob,
    importOpmlJob,
  ]);
}
