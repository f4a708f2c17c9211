import { handleJob } from '@murmur/jobs';
import type { FederationContext } from '../domain/context.js';
import { deliverActivityJob } from '../domain/jobs.js';
import { deliverActivity } from '../domain/outgoing.js';

// A failure means some inboxes of one host do not have the activity yet: 5xx, 429, 408, timeouts and
// unreachable hosts are retried with backoff (about two and a half days of attempts), only for the
// inboxes still owed; 410 and other 4xx drop the inbox. Other hosts are other jobs and never wait.
export const deliverActivityJobDefinition = handleJob(
  deliverActivityJob,
  (ctx: FederationContext, payload, job) => deliverActivity(ctx, payload, job),
);
