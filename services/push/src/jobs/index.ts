// Every job of the push service, registered on its queue with the service's context. APNs deliveries
// run up to PUSH_DELIVERY_CONCURRENCY jobs at once per process, and their sends share as many HTTP/2
// streams in flight (ctx.apnsStreams).
import { registerJobs, type JobQueue } from '@murmur/platform';
import type { PushContext } from '../domain/context.js';
import { deliverJob, notifyDevicesJob } from './deliver.js';
import { webDeliverJob } from './web-deliver.js';

export function registerPushJobs(queue: JobQueue, ctx: PushContext): void {
  registerJobs(queue, ctx, [
    {
      ...notifyDevicesJob,
      options: { ...notifyDevicesJob.options, concurrency: ctx.config.PUSH_DELIVERY_CONCURRENCY },
    },
    deliverJob,
    webDeliverJob,
  ]);
}
