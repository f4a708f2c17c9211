import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { WebmentionContext } from '../domain/context.js';
import { verifyMention } from '../domain/verify.js';

export const verifyMentionJob = defineJob({
  name: 'webmention.mention.verify',
  payload: z.object({ source: z.string(), target: z.string() }),
  options: { concurrency: 8, leaseMs: 60_000 },
  // A failure means the mention is not shown yet (or a shown one stays as it was): 429, 5xx and
  // unreachable sources are retried with backoff, up to 5 attempts, then the status says `failed`.
  handle: (ctx: WebmentionContext, payload, job) => verifyMention(ctx, payload.source, payload.target, job),
});
