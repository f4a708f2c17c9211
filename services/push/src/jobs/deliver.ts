import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { PushContext } from '../domain/context.js';
import { deliver } from '../domain/delivery.js';

export const notificationSchema = z.object({
  kind: z.enum(['reply', 'mention', 'webmention', 'follow']),
  alert: z.string().max(1000),
  postId: z.string().max(40).optional(),
  fromUsername: z.string().max(200).optional(),
});

export const deliverJob = defineJob({
  name: 'push.notification.deliver',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    deviceId: z.number().int().positive(),
    userId: z.number().int().positive(),
    notification: notificationSchema,
  }),
  options: { concurrency: 64, leaseMs: 60_000 },
  // A failure means the user's phone misses this notification: APNs busy or unreachable is retried
  // with backoff (first retry after a minute or more, five attempts), every other refusal is final
  // and written to the delivery log (`murmur push log`).
  handle: (ctx: PushContext, payload, job) => deliver(ctx, payload, job),
});
