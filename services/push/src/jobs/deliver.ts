import { z } from 'zod';
import { defineJob, handleJob } from '@murmur/jobs';
import type { PushContext } from '../domain/context.js';
import { deliverToDevices } from '../domain/delivery.js';
import { notificationSchema, notifyDevicesJob } from '../domain/jobs.js';

// A failure means the user's phones miss this notification: APNs busy or unreachable is retried
// with backoff (first retry after a minute or more, five attempts), every other refusal is final
// and written to the delivery log (`murmur push log`).
export const notifyDevicesJobDefinition = handleJob(notifyDevicesJob, (ctx: PushContext, payload, job) =>
  deliverToDevices(ctx, payload, job),
);

/**
 * The job of earlier versions, one per (event, device). Nothing enqueues it any more; it stays
 * registered so that jobs an older version queued still run after an upgrade.
 */
export const deliverJob = defineJob({
  name: 'push.notification.deliver',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    deviceId: z.number().int().positive(),
    userId: z.number().int().positive(),
    notification: notificationSchema,
  }),
  options: { concurrency: 8, leaseMs: 60_000 },
  handle: (ctx: PushContext, { deviceId, ...payload }, job) =>
    deliverToDevices(ctx, { ...payload, deviceIds: [deviceId] }, job),
});
