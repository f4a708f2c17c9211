// The jobs the push service's domain queues, declared without their handlers (docs/service-template.md, `jobs/`):
// the domain imports this file to enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

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
export const notifyDevicesJob = declareJob({
  name: 'push.devices.notify',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    userId: z.number().int().positive(),
    deviceIds: z.array(z.number().int().positive()).min(1).max(DEVICES_PER_JOB),
    notification: notificationSchema,
  }),
  options: { concurrency: 64, leaseMs: 60_000 },
});

export const webDeliverJob = declareJob({
  name: 'push.webpush.deliver',
  payload: z.object({
    eventId: z.string().min(1).max(200),
    subscriptionId: z.number().int().positive(),
    userId: z.number().int().positive(),
    notification: notificationSchema,
  }),
  options: { concurrency: 16, leaseMs: 60_000 },
});
