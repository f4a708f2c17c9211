import { handleJob } from '@murmur/jobs';
import type { FederationContext } from '../domain/context.js';
import { distributePostJob } from '../domain/jobs.js';
import { distributePostNow } from '../domain/outgoing.js';

// A failure (the store, or a mentioned account's server while looking it up) is retried with backoff;
// until it succeeds the post's followers on other servers do not get this change.
export const distributePostJobDefinition = handleJob(distributePostJob, (ctx: FederationContext, payload) =>
  distributePostNow(ctx, payload),
);
