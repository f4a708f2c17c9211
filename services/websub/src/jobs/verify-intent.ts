import { handleJob } from '@murmur/jobs';
import type { WebsubContext } from '../domain/context.js';
import { verifyIntentJob } from '../domain/jobs.js';
import { verifyIntent } from '../domain/verify.js';

// A failure means the callback could not be reached: asked again with backoff, three attempts in all;
// after the last the (un)subscription is not made and the subscriber has to ask again. An answer
// that does not echo the challenge is no failure: it simply confirms nothing.
export const verifyIntentJobDefinition = handleJob(verifyIntentJob, (ctx: WebsubContext, payload, job) =>
  verifyIntent(ctx, payload, job),
);
