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
export {
  declareJob,
  defineJob,
  handleJob,
  registerJobs,
  enqueueJob,
  type JobDefinition,
  type JobHandle,
  type JobType,
} from './define.js';
