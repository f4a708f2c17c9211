// Every job of the websub service, registered on its queue with the service's context: verifying
// intents, refreshing topics, delivering contents (as many at once as WEBSUB_DELIVERY_CONCURRENCY).
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { WebsubContext } from '../domain/context.js';
import { deliverContentJobDefinition } from './deliver-content.js';
import { refreshTopicJobDefinition } from './refresh-topic.js';
import { verifyIntentJobDefinition } from './verify-intent.js';

export function registerWebsubJobs(queue: JobQueue, ctx: WebsubContext): void {
  registerJobs(queue, ctx, [
    verifyIntentJobDefinition,
    refreshTopicJobDefinition,
    {
      ...deliverContentJobDefinition,
      options: {
        ...deliverContentJobDefinition.options,
        concurrency: ctx.config.WEBSUB_DELIVERY_CONCURRENCY,
      },
    },
  ]);
}
