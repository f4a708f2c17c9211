import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { PushContext } from '../domain/context.js';
import { deliverWeb } from '../domain/delivery.js';
import { notificationSchema } from './deliver.js';

export const webDeliverJob = defineJob({
  name: 'push.webpush.deliver',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    subscriptionId: z.number().int().positive(),
    userId: z.number().int().positive(),
    notification: notificationSchema,
  }),
  options: { concurrency: 16, leaseMs: 60_000 },
  // A failure means the user's browser misses this notification: a busy or unreachable push service
  // is retried with backoff (five attempts), a gone subscription (404/410) is deleted, every other
  // refusal is final; each attempt is in the delivery log.
  handle: (ctx: PushContext, payload, job) => deliverWeb(ctx, payload, job),
});
