// The delivery log for operators (`murmur push log`): the attempts of the last 30 days, newest first.
import type { z } from 'zod';
import { formatOffsetTime } from '@murmur/core';
import type { deliveryEntrySchema } from '../shapes.js';
import type { DeliveryDoc } from '../store/index.js';
import type { PushContext } from './context.js';
import { DELIVERY_LOG_MS } from './delivery.js';

export function recentDeliveries(
  ctx: PushContext,
  filter: { userId?: number | undefined; limit: number },
): Promise<DeliveryDoc[]> {
  return ctx.store.recentDeliveries({
    ...(filter.userId === undefined ? {} : { userId: filter.userId }),
    since: new Date(ctx.clock.nowMs() - DELIVERY_LOG_MS),
    limit: filter.limit,
  });
}

export function deliveryJson(d: DeliveryDoc): z.input<typeof deliveryEntrySchema> {
  return {
    at: formatOffsetTime(d.at),
    channel: d.channel ?? 'apns',
    event_id: d.eventId,
    user_id: d.userId,
    device_id: d.deviceId,
    device: `${d.tokenHint}…`,
    app_name: d.appName,
    push_env: d.pushEnv,
    attempt: d.attempt,
    status: d.status,
    reason: d.reason,
    outcome: d.outcome,
  };
}
