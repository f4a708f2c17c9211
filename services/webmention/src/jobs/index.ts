// Every job of the webmention service, registered on its queue with the service's context: verifying
// received mentions and sending ours, each with its configured concurrency.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { WebmentionContext } from '../domain/context.js';
import { sendMentionJobDefinition } from './send-mention.js';
import { verifyMentionJobDefinition } from './verify-mention.js';

export function registerWebmentionJobs(queue: JobQueue, ctx: WebmentionContext): void {
  registerJobs(queue, ctx, [
    {
      ...verifyMentionJobDefinition,
      options: {
        ...verifyMentionJobDefinition.options,
        concurrency: ctx.config.WEBMENTION_VERIFY_CONCURRENCY,
      },
    },
    {
      ...sendMentionJobDefinition,
      options: { ...sendMentionJobDefinition.options, concurrency: ctx.config.WEBMENTION_SEND_CONCURRENCY },
    },
  ]);
}
