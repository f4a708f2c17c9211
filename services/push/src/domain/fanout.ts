// From an event to jobs: each notification becomes one delivery job for its user's devices (at most
// DEVICES_PER_JOB, the per-user cap), keyed by (event, user, first device). A user's fan-out is marked
// done once queued, so a redelivered event queues nothing; a crash halfway queues the rest on
// redelivery, and the job key plus the delivery log (settled per event and device) keep the devices
// already queued or sent from being sent twice.
import {
  identity,
  type EventEnvelope,
  type federation,
  type publishing,
  type webmention,
} from '@murmur/contracts';
import { enqueueJob } from '@murmur/jobs';
import type { PushContext } from './context.js';
import { DEVICES_PER_JOB, notifyDevicesJob, webDeliverJob } from './jobs.js';
import {
  notificationOfFollow,
  notificationOfRemoteFollower,
  notificationOfWebmention,
  notificationsOfPost,
  type Notification,
} from './notifications.js';

/** Fan-out markers outlive the bus's retention of events (7 days), so every redelivery finds them. */
const FANOUT_MARK_MS = 8 * 24 * 3_600_000;

export async function fanOut(
  ctx: PushContext,
  eventId: string,
  notifications: Notification[],
): Promise<number> {
  let queued = 0;
  for (const n of notifications) {
    const mark = `${eventId}\u0000${n.userId}`;
    if (await ctx.store.fanoutDone(mark)) continue;
    const notification = {
      kind: n.kind,
      alert: n.alert,
      ...(n.postId === undefined ? {} : { postId: n.postId }),
      ...(n.fromUsername === undefined ? {} : { fromUsername: n.fromUsername }),
    };
    const devices = await ctx.store.devicesOfUser(n.userId);
    for (let i = 0; i < devices.length; i += DEVICES_PER_JOB) {
      const deviceIds = devices.slice(i, i + DEVICES_PER_JOB).map((d) => d._id);
      await enqueueJob(
        ctx.jobs,
        notifyDevicesJob,
        { eventId, userId: n.userId, deviceIds, notification },
        { key: `${eventId}\u0000user${n.userId}\u0000${deviceIds[0]}` },
      );
    }
    const subscriptions = await ctx.store.webSubsOfUser(n.userId);
    for (const sub of subscriptions) {
      await enqueueJob(
        ctx.jobs,
        webDeliverJob,
        { eventId, subscriptionId: sub._id, userId: n.userId, notification },
        { key: `${eventId}\u0000web${sub._id}` },
      );
    }
    queued += devices.length + subscriptions.length;
    await ctx.store.markFanout(mark, new Date(ctx.clock.nowMs() + FANOUT_MARK_MS));
  }
  return queued;
}

export async function notifyOfPost(
  ctx: PushContext,
  event: EventEnvelope<publishing.PublicPost>,
): Promise<void> {
  const post = event.data;
  if (!post.mentions.some((m) => m.userId !== post.userId)) return;
  // The event names the author by id only; identity knows the username. A failure is redelivered.
  const { user } = await ctx.bus.request(identity.usersGet, { id: post.userId });
  if (!user) return;
  await fanOut(ctx, event.id, notificationsOfPost(post, user.username));
}

export async function notifyOfWebmention(
  ctx: PushContext,
  event: EventEnvelope<webmention.VerifiedMention>,
): Promise<void> {
  const n = notificationOfWebmention(event.data);
  if (n) await fanOut(ctx, event.id, [n]);
}

export async function notifyOfFollow(
  ctx: PushContext,
  event: EventEnvelope<{ followerId: number; followerUsername: string; followeeId: number }>,
): Promise<void> {
  const n = notificationOfFollow(event.data);
  if (n) await fanOut(ctx, event.id, [n]);
}

export async function notifyOfRemoteFollower(
  ctx: PushContext,
  event: EventEnvelope<{ userId: number; follower: federation.RemoteAccount }>,
): Promise<void> {
  await fanOut(ctx, event.id, [notificationOfRemoteFollower(event.data)]);
}
