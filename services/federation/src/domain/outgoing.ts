// Sending activities (docs/api/federation.md, "Delivery"). Every activity is stored, then one delivery
// job per receiving host is queued (the host's shared inbox when its actors name one, else each
// actor's own inbox): a host that is down holds up only its own job, retried with backoff for days on
// 5xx, 429 and timeouts; 410 and other 4xx drop that inbox. A job run twice sends nothing twice that
// was delivered: each host's delivery record keeps which inboxes have the activity.
import type { webcrypto } from 'node:crypto';
import { enqueueJob, type Job } from '@murmur/jobs';
import { ConcurrencyLimit } from '@murmur/core';
import { FetchBlockedError, FetchError, FetchRedirectError } from '@murmur/fetch';
import type { ActorDoc, PostDoc, UserDoc } from '../store/index.js';
import type { FederationContext } from './context.js';
import {
  actorJson,
  createJson,
  deleteJson,
  noteJson,
  updatePersonJson,
  updateJson,
  type Json,
  type RemoteMention,
} from './ap-json.js';
import { deliverActivityJob, distributePostJob } from './jobs.js';
import { resolveAccount } from './remote.js';
import { signCavage } from './signatures.js';
import { findUserById } from './users.js';

/** Limits of one delivery POST. */
const DELIVERY_LIMITS = { timeoutMs: 15_000, connectTimeoutMs: 5_000, maxBytes: 64 * 1024, maxRedirects: 0 };
/** At most this many `@name@host` of a post are looked up and delivered to. */
const MAX_REMOTE_MENTIONS = 10;

export async function distributePost(
  ctx: FederationContext,
  post: PostDoc,
  kind: 'create' | 'update' | 'delete',
): Promise<void> {
  if (!ctx.config.FEDERATION_ENABLED) return;
  await enqueueJob(
    ctx.jobs,
    distributePostJob,
    { postId: post._id, rev: post.rev, kind },
    { key: `distribute:${post._id}:${post.rev}:${kind}`, maxAttempts: 10 },
  );
}

/** `@name@host` in a post's text, for a host other than ours. */
export function remoteHandlesIn(text: string, ourHost: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(
    /(?:^|[^\w@/])@([a-z0-9_.-]+)@([a-z0-9.-]+\.[a-z0-9-]+|localhost|\d+\.\d+\.\d+\.\d+)(:\d{1,5})?/gi,
  )) {
    const host = `${match[2]!}${match[3] ?? ''}`.toLowerCase();
    if (host === ourHost.toLowerCase()) continue;
    found.add(`${match[1]!}@${host}`);
    if (found.size >= MAX_REMOTE_MENTIONS) break;
  }
  return [...found];
}

async function mentionedActors(ctx: FederationContext, post: PostDoc): Promise<ActorDoc[]> {
  const actors: ActorDoc[] = [];
  for (const handle of remoteHandlesIn(post.contentText, ctx.urls.host)) {
    try {
      actors.push(await resolveAccount(ctx, handle));
    } catch (err) {
      ctx.logger.info({ handle, err: (err as Error).message }, 'a mentioned account could not be found');
    }
  }
  return actors;
}

/** The distribute job: the post's activity, to its author's followers and the accounts it mentions. */
export async function distributePostNow(
  ctx: FederationContext,
  payload: { postId: number; rev: number; kind: 'create' | 'update' | 'delete' },
): Promise<void> {
  const post = await ctx.store.postById(payload.postId);
  if (!post) return;
  // A later change has its own job; this one sends nothing the post no longer is.
  if (payload.kind === 'delete' ? post.visible : !post.visible) return;
  const user = await findUserById(ctx, post.userId);
  if (!user) return;
  const mentioned = await mentionedActors(ctx, post);
  const remoteMentions: RemoteMention[] = mentioned.map((a) => ({ actorId: a.actorId, handle: a.handle }));
  let activity: Json;
  if (payload.kind === 'delete') {
    activity = deleteJson(ctx.urls, post._id, user, post.rev);
  } else {
    const note = noteJson(ctx.urls, post, user, remoteMentions);
    activity =
      payload.kind === 'create'
        ? createJson(ctx.urls, note, user, post.publishedAt)
        : updateJson(ctx.urls, note, user, post.rev, post.editedAt ?? ctx.clock.now());
  }
  const followers = await ctx.store.followersOf(user._id);
  const actors = await ctx.store.actorsByIds(followers.map((f) => f.actor));
  await sendActivity(ctx, user._id, activity, [...actors, ...mentioned], { sharedInbox: true });
}

/** A changed profile: Update(Person) to the user's followers, once per host at its shared inbox. */
export async function sendProfileUpdate(ctx: FederationContext, user: UserDoc): Promise<void> {
  if (!ctx.config.FEDERATION_ENABLED) return;
  const followers = await ctx.store.followersOf(user._id);
  if (followers.length === 0) return;
  const actors = await ctx.store.actorsByIds(followers.map((f) => f.actor));
  const key = await ctx.keys.signingKey(user._id);
  const person = actorJson(ctx.urls, user, key.publicKeyPem);
  const activity = updatePersonJson(ctx.urls, person, user, ctx.clock.now());
  await sendActivity(ctx, user._id, activity, actors, { sharedInbox: true });
}

/**
 * Stores `activity` and queues its delivery to `recipients`, one job per host. With `sharedInbox`,
 * an actor's host gets the activity once at its shared inbox when the actor names one.
 */
export async function sendActivity(
  ctx: FederationContext,
  signer: number,
  activity: Json,
  recipients: Pick<ActorDoc, 'inbox' | 'sharedInbox' | 'deleted'>[],
  options: { sharedInbox: boolean },
): Promise<void> {
  if (!ctx.config.FEDERATION_ENABLED) return;
  const byHost = new Map<string, Set<string>>();
  for (const actor of recipients) {
    if (actor.deleted) continue;
    const inbox = (options.sharedInbox && actor.sharedInbox) || actor.inbox;
    let host: string;
    try {
      host = new URL(inbox).host;
    } catch {
      continue;
    }
    let set = byHost.get(host);
    if (!set) byHost.set(host, (set = new Set()));
    set.add(inbox);
  }
  if (byHost.size === 0) return;
  const id = String(activity.id);
  await ctx.store.keepActivity(id, signer, JSON.stringify(activity), ctx.clock.now());
  for (const [host, inboxes] of byHost) {
    await enqueueJob(
      ctx.jobs,
      deliverActivityJob,
      { activityId: id, host, inboxes: [...inboxes] },
      {
        key: `deliver:${ctx.store.deliveryId(id, host)}`,
        maxAttempts: ctx.config.FEDERATION_DELIVERY_ATTEMPTS,
      },
    );
  }
}

/** A failure of a delivery worth trying again later (5xx, 429, 408, timeouts, unreachable hosts). */
export class DeliveryRetry extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

type Outcome = {
  inbox: string;
  result: 'done' | 'dropped' | 'retry';
  reason?: string;
  retryAfterMs?: number;
};

function retryAfterMsOf(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

const activityCache = new WeakMap<FederationContext, Map<string, { json: string; signer: number }>>();

async function activityText(
  ctx: FederationContext,
  id: string,
): Promise<{ json: string; signer: number } | null> {
  let cache = activityCache.get(ctx);
  if (!cache) activityCache.set(ctx, (cache = new Map()));
  const hit = cache.get(id);
  if (hit) return hit;
  const doc = await ctx.store.activityById(id);
  if (!doc) return null;
  const entry = { json: doc.json, signer: doc.signer };
  if (cache.size >= 256) cache.delete(cache.keys().next().value!);
  cache.set(id, entry);
  return entry;
}

/** The deliver job: POSTs the activity to each inbox of the host that does not have it yet. */
export async function deliverActivity(
  ctx: FederationContext,
  payload: { activityId: string; host: string; inboxes: string[] },
  job: Pick<Job, 'attempts' | 'maxAttempts'>,
): Promise<void> {
  const activity = await activityText(ctx, payload.activityId);
  if (!activity) return; // kept 14 days: a job older than that has nothing left to send
  const record = await ctx.store.openDelivery(
    payload.activityId,
    payload.host,
    payload.inboxes,
    ctx.clock.now(),
  );
  const settled = new Set([...record.done, ...record.dropped]);
  const remaining = payload.inboxes.filter((inbox) => !settled.has(inbox));
  if (remaining.length === 0) return;
  const key = await ctx.keys.signingKey(activity.signer);
  const keyId =
    activity.signer === 0
      ? ctx.urls.instanceKeyId
      : ctx.urls.keyId((await findUserById(ctx, activity.signer))?.username ?? '');
  const body = Buffer.from(activity.json);
  const turns = new ConcurrencyLimit(ctx.config.FEDERATION_HOST_CONCURRENCY);
  const outcomes = await Promise.all(
    remaining.map((inbox) => turns.run(() => postTo(ctx, inbox, body, keyId, key.privateKey))),
  );
  const done = outcomes.filter((o) => o.result === 'done').map((o) => o.inbox);
  const dropped = outcomes.filter((o) => o.result === 'dropped');
  const retry = outcomes.filter((o) => o.result === 'retry');
  for (const d of dropped) ctx.logger.info({ inbox: d.inbox, reason: d.reason }, 'delivery dropped');
  const last = job.attempts >= job.maxAttempts;
  await ctx.store.recordDeliveryProgress(
    record._id,
    {
      done,
      dropped: dropped.map((o) => o.inbox),
      status: retry.length === 0 ? 'delivered' : last ? 'failed' : 'retrying',
      ...(retry.length > 0 ? { lastError: retry[0]!.reason ?? 'failed' } : {}),
    },
    ctx.clock.now(),
  );
  if (retry.length > 0) {
    const waits = retry.map((o) => o.retryAfterMs).filter((w): w is number => w !== undefined);
    throw new DeliveryRetry(
      `${retry.length} of ${remaining.length} inboxes of ${payload.host}: ${retry[0]!.reason}`,
      waits.length > 0 ? Math.max(...waits) : undefined,
    );
  }
}

async function postTo(
  ctx: FederationContext,
  inbox: string,
  body: Buffer,
  keyId: string,
  privateKey: webcrypto.CryptoKey,
): Promise<Outcome> {
  try {
    const res = await ctx.fetcher.fetch(inbox, {
      ...DELIVERY_LIMITS,
      method: 'POST',
      body,
      accept: 'application/activity+json, application/ld+json',
      headers: { 'content-type': 'application/activity+json' },
      sign: ({ method, url, body: hopBody }) =>
        signCavage({
          method,
          url,
          ...(hopBody === undefined ? {} : { body: hopBody }),
          keyId,
          privateKey,
          now: ctx.clock.now(),
        }),
    });
    if (res.status >= 200 && res.status < 300) return { inbox, result: 'done' };
    const reason = `${inbox} answered ${res.status}`;
    if (res.status === 429 || res.status === 408 || res.status >= 500) {
      return {
        inbox,
        result: 'retry',
        reason,
        retryAfterMs: retryAfterMsOf(res.headers['retry-after'], ctx.clock.nowMs()),
      };
    }
    // 410: the inbox (or its actor) is gone; another 4xx will not change on a retry.
    return { inbox, result: 'dropped', reason };
  } catch (err) {
    // Refused by the SSRF guard, or moved: neither is fixed by trying again.
    if (err instanceof FetchBlockedError || err instanceof FetchRedirectError) {
      return { inbox, result: 'dropped', reason: err.message };
    }
    if (err instanceof FetchError) return { inbox, result: 'retry', reason: err.message };
    throw err;
  }
}
