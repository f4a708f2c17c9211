import { handleJob } from '@murmur/jobs';
import type { WebmentionContext } from '../domain/context.js';
import { sendMentionJob } from '../domain/jobs.js';
import { sendMention } from '../domain/send.js';

// A failure means the linked site does not hear of our post (yet): unreachable pages and endpoints
// answering 429/5xx are retried with backoff, up to 5 attempts; the send record says what happened.
export const sendMentionJobDefinition = handleJob(sendMentionJob, (ctx: WebmentionContext, payload, job) =>
  sendMention(ctx, payload.postId, payload.source, payload.target, job),
);
