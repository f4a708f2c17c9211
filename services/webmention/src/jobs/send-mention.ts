import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { WebmentionContext } from '../domain/context.js';
import { sendMention } from '../domain/send.js';

export const sendMentionJob = defineJob({
  name: 'webmention.mention.send',
  payload: z.object({ postId: z.number().int().positive(), source: z.string(), target: z.string() }),
  options: { concurrency: 4, leaseMs: 90_000 },
  // A failure means the linked site does not hear of our post (yet): unreachable pages and endpoints
  // answering 429/5xx are retried with backoff, up to 5 attempts; the send record says what happened.
  handle: (ctx: WebmentionContext, payload, job) =>
    sendMention(ctx, payload.postId, payload.source, payload.target, job),
});
