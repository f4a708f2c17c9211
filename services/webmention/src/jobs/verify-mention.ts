import { handleJob } from '@murmur/jobs';
import type { WebmentionContext } from '../domain/context.js';
import { verifyMentionJob } from '../domain/jobs.js';
import { verifyMention } from '../domain/verify.js';

// A failure means the mention is not shown yet (or a shown one stays as it was): 429, 5xx and
// unreachable sources are retried with backoff, up to 5 attempts, then the status says `failed`.
export const verifyMentionJobDefinition = handleJob(
  verifyMentionJob,
  (ctx: WebmentionContext, payload, job) => verifyMention(ctx, payload.source, payload.target, job),
);
