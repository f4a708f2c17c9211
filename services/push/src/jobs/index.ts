// Every job of the push service, registered on its queue with the service's context. Deliveries run
// PUSH_DELIVERY_CONCURRENCY at once per process (streams in flight on the HTTP/2 sessions).
import { registerJobs, type JobQueue } from '@murmur/platform';
import type { PushContext } from '../domain/context.js';
import { deliverJob } from './deliver.js';
import { webDeliverJob } from './web-deliver.js';

export function registerPushJobs(queue: JobQueue, ctx: PushContext): void {
  registerJobs(queue, ctx, [
    { ...deliverJob, options: { ...deliverJob.options, concurrency: ctx.config.PUSH_DELIVERY_CONCURRENCY } },
    webDeliverJob,
  ]);
}
