// Every job of the push service, registered on its queue with the service's context. APNs deliveries
// run up to PUSH_DELIVERY_CONCURRENCY jobs at once per process, and their sends share as many HTTP/2
// streams in flight (ctx.apnsStreams).
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { PushContext } from '../domain/context.js';
import { deliverJob, notifyDevicesJobDefinition } from './deliver.js';
import { webDeliverJobDefinition } from './web-deliver.js';

export function registerPushJobs(queue: JobQueue, ctx: PushContext): void {
  registerJobs(queue, ctx, [
    {
      ...notifyDevicesJobDefinition,
      options: { ...notifyDevicesJobDefinition.options, concurrency: ctx.config.PUSH_DELIVERY_CONCURRENCY },
    },
    deliverJob,
    webDeliverJobDefinition,
  ]);
}
