// Delivery of one notification to a user's devices through APNs (one job per event and user, at most
// 100 devices: docs/adr/0014-push-delivery.md), and what each answer means (docs/api/push.md,
// "Responses"). Every attempt is written to the delivery log; a device whose delivery of the event is
// settled there (delivered, removed, dead) is never sent it again, so a job that runs again (a retry,
// a lapsed lease after a crash) sends only to the devices still owed the notification.
import type { Job } from '@murmur/jobs';
import type { DeliveryOutcome, DeviceDoc, WebSubDoc } from '../store/index.js';
import { appForDevice } from './apps.js';
import { apnsPayload } from './apns-payload.js';
import type { ApnsAnswer } from './apns/sender.js';
import type { PushContext } from './context.js';
import type { NotificationKind } from './notifications.js';
import { sendWebPush, webPushPayload, type WebPushAnswer } from './web-push.js';

/** Delivery log entries are kept this long. */
export const DELIVERY_LOG_MS = 30 * 24 * 3_600_000;

export interface NotificationPayload {
  kind: NotificationKind;
  alert: string;
  postId?: string | undefined;
  fromUsername?: string | undefined;
}

/** The payload of a delivery job: one notification of one event for some devices of one user. */
export interface DevicesDeliveryPayload {
  eventId: string;
  userId: number;
  /** The user's devices when the event was fanned out (at most DEVICES_PER_JOB). */
  deviceIds: number[];
  notification: NotificationPayload;
}

/** What an APNs answer means for the device and the job. */
export function outcomeOf(answer: ApnsAnswer): 'delivered' | 'remove' | 'retry' | 'dead' {
  const { status, reason } = answer;
  if (status === 200) return 'delivered';
  if (status === 410 || (status === 400 && reason === 'BadDeviceToken')) return 'remove';
  if (status === 0 || status === 429 || status >= 500) return 'retry';
  return 'dead';
}

export class RetryDelivery extends Error {
  constructor(answer: Pick<ApnsAnswer, 'status' | 'reason'>, devices = 1) {
    super(
      `APNs answered ${answer.status || 'nothing'}${answer.reason ? ` (${answer.reason})` : ''}` +
        `${devices > 1 ? ` for ${devices} devices` : ''}; will retry`,
    );
    this.name = 'RetryDelivery';
  }
}

/**
 * Sends the notification to every device of the payload not yet settled for this event, through the
 * process's APNs stream limit, and logs each answer. Devices APNs asks to retry (429, 5xx, no answer)
 * make the job fail once all answers are logged, so the queue retries it with backoff; on the last
 * attempt they are logged dead instead.
 */
export async function deliverToDevices(
  ctx: PushContext,
  payload: DevicesDeliveryPayload,
  job: Job<unknown>,
): Promise<void> {
  const { eventId, userId } = payload;
  // One read for the devices already served (a rerun after a retry, a lapsed lease, a second fan-out).
  const settled = await ctx.store.settledDevices(eventId, payload.deviceIds);
  const owed = payload.deviceIds.filter((id) => !settled.has(id));
  if (owed.length === 0) return;
  // Unregistered or moved to another account since the fan-out: nothing to send.
  const devices = (await ctx.store.devicesByIds(owed)).filter((d) => d.userId === userId);
  if (devices.length === 0) return;
  // The APNs JSON is the same for every device of the notification: built once.
  const body = apnsPayload(payload.notification);
  const results = await Promise.allSettled(
    devices.map((device) => deliverOne(ctx, device, payload, body, job)),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const retries = results.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
  if (retries.length > 0) throw new RetryDelivery(retries[0]!, retries.length);
}

/** One device: send, then log what the answer means. Returns the answer when it is to be retried. */
async function deliverOne(
  ctx: PushContext,
  device: DeviceDoc,
  payload: DevicesDeliveryPayload,
  body: string,
  job: Job<unknown>,
): Promise<ApnsAnswer | undefined> {
  const log = (outcome: DeliveryOutcome, status: number, reason: string) =>
    logAttempt(ctx, device, payload.eventId, job, outcome, status, reason);
  const app = await appForDevice(ctx, device.appName);
  if (!app || !app.environments.includes(device.pushEnv)) {
    await log('dead', 0, app ? `NoCredentialsFor${device.pushEnv}` : 'NoCredentials');
    return undefined;
  }
  const answer = await ctx.apnsStreams.run(() =>
    ctx.apns.send(
      { name: app._id, teamId: app.teamId, keyId: app.keyId, key: app.key, topic: app.topic },
      device.pushEnv,
      device.token,
      body,
    ),
  );
  switch (outcomeOf(answer)) {
    case 'delivered':
      await log('delivered', answer.status, answer.reason);
      return undefined;
    case 'remove':
      await ctx.store.deleteDeviceById(device._id);
      await log('removed', answer.status, answer.reason);
      return undefined;
    case 'retry':
      if (job.attempts >= job.maxAttempts) {
        await log('dead', answer.status, answer.reason);
        return undefined;
      }
      await log('retry', answer.status, answer.reason);
      return answer;
    case 'dead':
      if (answer.status === 403) {
        ctx.logger.error(
          { app: app._id, env: device.pushEnv, status: answer.status, reason: answer.reason },
          'APNs refused the provider token of a push app twice; check its team id, key id and key',
        );
      }
      await log('dead', answer.status, answer.reason);
      return undefined;
  }
}

function logAttempt(
  ctx: PushContext,
  device: DeviceDoc,
  eventId: string,
  job: Job<unknown>,
  outcome: DeliveryOutcome,
  status: number,
  reason: string,
): Promise<void> {
  const at = ctx.clock.now();
  // Group-committed with the other deliveries in flight (delivery-log-writer.ts).
  return ctx.deliveryLog.write({
    eventId,
    deviceId: device._id,
    userId: device.userId,
    appName: device.appName,
    pushEnv: device.pushEnv,
    tokenHint: device.token.slice(0, 8),
    attempt: job.attempts,
    status,
    reason,
    outcome,
    at,
    expiresAt: new Date(at.getTime() + DELIVERY_LOG_MS),
  });
}

/** What a Web Push service's answer means (RFC 8030): 404/410 → the subscription is gone. */
export function webOutcomeOf(answer: WebPushAnswer): 'delivered' | 'remove' | 'retry' | 'dead' {
  const { status } = answer;
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 404 || status === 410) return 'remove';
  if (status === 0 || status === 429 || status >= 500)
    return answer.reason === 'EndpointNotAllowed' ? 'dead' : 'retry';
  return 'dead';
}

export interface WebDeliveryPayload {
  eventId: string;
  subscriptionId: number;
  userId: number;
  notification: NotificationPayload;
}

/** One notification to one browser subscription; the same log and retry rules as APNs. */
export async function deliverWeb(
  ctx: PushContext,
  payload: WebDeliveryPayload,
  job: Job<unknown>,
): Promise<void> {
  const { eventId, subscriptionId, userId } = payload;
  if (await ctx.store.deliverySettled(eventId, subscriptionId, 'web')) return;
  const sub = await ctx.store.webSubById(subscriptionId);
  if (!sub || sub.userId !== userId) return;
  const log = (outcome: DeliveryOutcome, status: number, reason: string) =>
    logWebAttempt(ctx, sub, eventId, job, outcome, status, reason);
  const answer = await sendWebPush(ctx, sub, webPushPayload(payload.notification));
  switch (webOutcomeOf(answer)) {
    case 'delivered':
      return log('delivered', answer.status, answer.reason);
    case 'remove':
      await ctx.store.deleteWebSubById(sub._id);
      return log('removed', answer.status, answer.reason);
    case 'retry':
      if (job.attempts >= job.maxAttempts) return log('dead', answer.status, answer.reason);
      await log('retry', answer.status, answer.reason);
      throw new RetryDelivery({ status: answer.status, reason: answer.reason });
    case 'dead':
      return log('dead', answer.status, answer.reason);
  }
}

async function logWebAttempt(
  ctx: PushContext,
  sub: WebSubDoc,
  eventId: string,
  job: Job<unknown>,
  outcome: DeliveryOutcome,
  status: number,
  reason: string,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.store.logDelivery({
    channel: 'web',
    eventId,
    deviceId: sub._id,
    userId: sub.userId,
    appName: 'web',
    pushEnv: 'production',
    tokenHint: new URL(sub.endpoint).host,
    attempt: job.attempts,
    status,
    reason,
    outcome,
    at,
    expiresAt: new Date(at.getTime() + DELIVERY_LOG_MS),
  });
}
