import { z } from 'zod';
import { defineJob } from '@murmur/platform';
import type { PushContext } from '../domain/context.js';
import { deliverToDevices } from '../domain/delivery.js';

/** A user has at most 100 devices (domain/params.ts): one job covers them all. */
export const DEVICES_PER_JOB = 100;

export const notificationSchema = z.object({
  kind: z.enum(['reply', 'mention', 'webmention', 'follow']),
  alert: z.string().max(1000),
  postId: z.string().max(40).optional(),
  fromUsername: z.string().max(200).optional(),
});

/**
 * One notification of one event to a user's devices (up to DEVICES_PER_JOB of them), each device's
 * answer logged on its own and settled per (event, device): a retry or a rerun sends only to the
 * devices still owed the notification (docs/adr/0014-push-delivery.md).
 */
export const notifyDevicesJob = defineJob({
  name: 'push.devices.notify',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    userId: z.number().int().positive(),
    deviceIds: z.array(z.number().int().positive()).min(1).max(DEVICES_PER_JOB),
    notification: notificationSchema,
  }),
  options: { concurrency: 64, leaseMs: 60_000 },
  // A failure means the user's phones miss this notification: APNs busy or unreachable is retried
  // with backoff (first retry after a minute or more, five attempts), every other refusal is final
  // and written to the delivery log (`murmur push log`).
  handle: (ctx: PushContext, payload, job) => deliverToDevices(ctx, payload, job),
});

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
