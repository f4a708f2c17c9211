// Every job of the federation service, registered on its queue with the service's context: turning
// post changes into activities, and delivering activities host by host.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { FederationContext } from '../domain/context.js';
import { deliverActivityJobDefinition } from './deliver-activity.js';
import { distributePostJobDefinition } from './distribute-post.js';

export function registerFederationJobs(queue: JobQueue, ctx: FederationContext): void {
  registerJobs(queue, ctx, [
    distributePostJobDefinition,
    {
      ...deliverActivityJobDefinition,
      options: {
        ...deliverActivityJobDefinition.options,
        concurrency: ctx.config.FEDERATION_DELIVERY_CONCURRENCY,
      },
    },
  ]);
}
