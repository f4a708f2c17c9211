import { handleJob } from '@murmur/jobs';
import { refreshTopic } from '../domain/content.js';
import type { WebsubContext } from '../domain/context.js';
import { refreshTopicJob } from '../domain/jobs.js';

// A failure means the topic's document could not be read (its service down, a 5xx): retried with
// backoff; meanwhile its subscribers get nothing new, and after the last attempt they get this change
// with the next one.
export const refreshTopicJobDefinition = handleJob(refreshTopicJob, (ctx: WebsubContext, payload) =>
  refreshTopic(ctx, payload),
);
