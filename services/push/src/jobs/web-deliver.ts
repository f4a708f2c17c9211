import { handleJob } from '@murmur/jobs';
import type { PushContext } from '../domain/context.js';
import { deliverWeb } from '../domain/delivery.js';
import { webDeliverJob } from '../domain/jobs.js';

// A failure means the user's browser misses this notification: a busy or unreachable push service
// is retried with backoff (five attempts), a gone subscription (404/410) is deleted, every other
// refusal is final; each attempt is in the delivery log.
export const webDeliverJobDefinition = handleJob(webDeliverJob, (ctx: PushContext, payload, job) =>
  deliverWeb(ctx, payload, job),
);
