// One delivery: a notification to one device through APNs, and what each answer means
// (docs/api/push.md, "Responses"). Every attempt is written to the delivery log.
import type { Job } from '@murmur/platform';
import type { DeliveryOutcome, DeviceDoc, WebSubDoc } from '../store/index.js';
import { appForDevice } from './apps.js';
import { apnsPayload } from './apns-payload.js';
import type { ApnsAnswer } from './apns/sender.js';
import type { PushContext } from './context.js';
import type { NotificationKind } from './notifications.js';
import { sendWebPush, webPushPayload, type WebPushAnswer } from './web-push.js';

/** Delivery log entries are kept this long. */
export const DELIVERY_LOG_MS = 30 * 24 * 3_600_000;

export interface DeliveryPayload {
  eventId: string;
  deviceId: number;
  userId: number;
  notification: {
    kind: NotificationKind;
    alert: string;
    postId?: string | undefined;
    fromUsername?: string | undefined;
  };
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
  constructor(answer: Pick<ApnsAnswer, 'status' | 'reason'>) {
    super(
      `APNs answered ${answer.status || 'nothing'}${answer.reason ? ` (${answer.reason})` : ''}; will retry`,
    );
    this.name = 'RetryDelivery';
  }
}

export async function deliver(ctx: PushContext, payload: DeliveryPayload, job: Job<unknown>): Promise<void> {
  const { eventId, deviceId, userId } = payload;
  // A job that runs again (lease lapsed, event fanned out twice after a crash) sends nothing new.
  if (await ctx.store.deliverySettled(eventId, deviceId)) return;
  const device = await ctx.store.deviceById(deviceId);
  // Unregistered or moved to another account since: nothing to send.
  if (!device || device.userId !== userId) return;

  const log = (outcome: DeliveryOutcome, status: number, reason: string) =>
    logAttempt(ctx, device, payload, job, outcome, status, reason);
  const app = await appForDevice(ctx, device.appName);
  if (!app || !app.environments.includes(device.pushEnv)) {
    return log('dead', 0, app ? `NoCredentialsFor${device.pushEnv}` : 'NoCredentials');
  }
  const answer = await ctx.apns.send(
    { name: app._id, teamId: app.teamId, keyId: app.keyId, key: app.key, topic: app.topic },
    device.pushEnv,
    device.token,
    apnsPayload(payload.notification),
  );
  switch (outcomeOf(answer)) {
    case 'delivered':
      return log('delivered', answer.status, answer.reason);
    case 'remove':
      await ctx.store.deleteDeviceById(device._id);
      return log('removed', answer.status, answer.reason);
    case 'retry':
      if (job.attempts >= job.maxAttempts) return log('dead', answer.status, answer.reason);
      await log('retry', answer.status, answer.reason);
      throw new RetryDelivery(answer);
    case 'dead':
      if (answer.status === 403) {
        ctx.logger.error(
          { app: app._id, env: device.pushEnv, status: answer.status, reason: answer.reason },
          'APNs refused the provider token of a push app twice; check its team id, key id and key',
        );
      }
      return log('dead', answer.status, answer.reason);
  }
}

async function logAttempt(
  ctx: PushContext,
  device: DeviceDoc,
  payload: DeliveryPayload,
  job: Job<unknown>,
  outcome: DeliveryOutcome,
  status: number,
  reason: string,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.store.logDelivery({
    eventId: payload.eventId,
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
  notification: DeliveryPayload['notification'];
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
