// The job queue (docs/adr/0003-jobs.md): background work in the service's own store, shared by its replicas.
export { JobQueue } from './queue.js';
export { retryDelayMs } from './backoff.js';
export type {
  Job,
  JobHandler,
  JobStatus,
  EnqueueOptions,
  RegisterOptions,
  JobQueueOptions,
} from './types.js';
export { defineJob, registerJobs, enqueueJob, type JobDefinition } from './define.js';
