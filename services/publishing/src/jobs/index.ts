// Every job of publishing, registered on the service's queue.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { PublishingContext } from '../domain/context.js';
import { publishPostJobDefinition } from './publish-post.js';

export function registerPublishingJobs(queue: JobQueue, ctx: PublishingContext): void {
  registerJobs(queue, ctx, [publishPostJobDefinition]);
}
