// WebSub subscriptions of the reader (docs/api/reader.md "WebSub",
// docs/adr/0024-websub-subscriptions-in-the-reader.md): when a polled feed names a hub, the reader
// subscribes to it once for all its users of that feed, with a callback of its own on PUBLIC_URL whose
// path token is unguessable and a secret per subscription. The hub verifies our intent at the callback
// (GET); it delivers new documents there (POST), signed with the secret, and they are stored exactly as
// a poll's. Renewal, retries and the end of the subscription are jobs the scheduler queues.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { FetchError } from '@murmur/fetch';
import { DuplicateKeyError } from '@murmur/store';
import { FeedParseError } from '../feeds/types.js';
import type { WebSubTarget } from '../feeds/websub.js';
import { jittered } from '../feeds/schedule.js';
import type { WebSubDoc } from '../store/index.js';
import type { ReaderContext } from './context.js';
import { applyFeedDocument } from './feed-update.js';
import { queueWebSubSubscribe, queueWebSubUnsubscribe } from './jobs.js';

/** The callback's path; the token is the record's id (docs/api/reader.md "WebSub"). */
export const CALLBACK_PATH = '/feeds/v2/websub/';
/** A delivery larger than this is refused with 413 (a feed document; polls allow more, hubs send less). */
export const DELIVERY_BODY_LIMIT = 4 * 1024 * 1024;
/** A hub that has not verified a request within this long is asked again. */
const VERIFY_WAIT_MS = 60 * 60_000;
/** Unsubscribe requests before the record is dropped anyway (the hub's lease then ends on its own). */
const MAX_UNSUBSCRIBE_ATTEMPTS = 3;
/** Renewal when this share of the granted lease has passed. */
const RENEW_AT_SHARE = 0.8;
/** The scheduler hands a due record to a job and looks again no sooner than this. */
const CLAIM_MS = 10 * 60_000;
const HUB_REQUEST_LIMITS = { timeoutMs: 20_000, maxBytes: 64 * 1024, maxRedirects: 5 } as const;
/** X-Hub-Signature methods WebSub allows (§8), as node:crypto names them. */
const SIGNATURE_METHODS = new Set(['sha1', 'sha256', 'sha384', 'sha512']);

const token = () => randomBytes(32).toString('base64url');

export function callbackUrl(ctx: ReaderContext, doc: Pick<WebSubDoc, '_id'>): string {
  return `${ctx.config.PUBLIC_URL.replace(/\/+$/, '')}${CALLBACK_PATH}${doc._id}`;
}

/** The feed's record that is not on its way out, if any. */
async function activeOfFeed(ctx: ReaderContext, feedId: number): Promise<WebSubDoc | null> {
  const docs = await ctx.store.webSubsOfFeed(feedId);
  return docs.find((d) => d.state !== 'unsubscribing') ?? null;
}

/** True while a hub pushes the feed under a lease that has not ended: polling is then the fallback. */
export async function pushedFeed(ctx: ReaderContext, feedId: number, nowMs: number): Promise<boolean> {
  if (!ctx.config.READER_WEBSUB) return false;
  const doc = await activeOfFeed(ctx, feedId);
  return doc?.state === 'subscribed' && doc.expiresAt !== null && doc.expiresAt.getTime() > nowMs;
}

/**
 * After a fetch of a subscribed feed: what it names (`target`, null for no hub) against what the reader
 * has. A new hub or topic queues a subscription (the job ends the old one); a feed that stopped naming
 * a hub has its subscription ended. Nothing is written when nothing changed.
 */
export async function considerWebSub(
  ctx: ReaderContext,
  feedId: number,
  target: WebSubTarget | null,
): Promise<void> {
  if (!ctx.config.READER_WEBSUB) return;
  const active = await activeOfFeed(ctx, feedId);
  if (target === null) {
    if (active) await retire(ctx, active);
    return;
  }
  if (active && active.hub === target.hub && active.topic === target.topic) return;
  await queueWebSubSubscribe(ctx, { feedId, ...target });
}

/** The feed lost its last subscriber: its hub subscription ends. */
export async function afterLastSubscriber(ctx: ReaderContext, feedId: number): Promise<void> {
  const feed = await ctx.store.feedById(feedId);
  if (!feed || feed.subscriberCount > 0) return;
  const active = await activeOfFeed(ctx, feedId);
  if (active) await retire(ctx, active);
}

/** Marks the record as ending and queues its unsubscribe request. */
async function retire(ctx: ReaderContext, doc: WebSubDoc): Promise<void> {
  const now = ctx.clock.nowDate();
  if (doc.state === 'denied') {
    // The hub holds no subscription: nothing to ask it.
    await ctx.store.deleteWebSub(doc._id);
    return;
  }
  await ctx.store.updateWebSub(doc._id, {
    state: 'unsubscribing',
    pending: null,
    attempts: 0,
    renewAt: new Date(now.getTime() + CLAIM_MS),
    updatedAt: now,
  });
  await queueWebSubUnsubscribe(ctx, doc._id);
}

/** POSTs a subscription request for `doc` to its hub; the hub's refusal is recorded, not thrown. */
async function requestAtHub(
  ctx: ReaderContext,
  doc: WebSubDoc,
  mode: 'subscribe' | 'unsubscribe',
): Promise<string | null> {
  const form = new URLSearchParams({
    'hub.mode': mode,
    'hub.topic': doc.topic,
    'hub.callback': callbackUrl(ctx, doc),
  });
  if (mode === 'subscribe') {
    form.set('hub.secret', doc.secret);
    form.set('hub.lease_seconds', String(ctx.config.READER_WEBSUB_LEASE_SECONDS));
  }
  try {
    const res = await ctx.fetcher.fetch(doc.hub, {
      limits: HUB_REQUEST_LIMITS,
      accept: '*/*',
      method: 'POST',
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    if (res.status >= 200 && res.status <= 299) return null;
    const why = res.body.toString('utf8').slice(0, 200).trim();
    return `hub answered HTTP ${res.status}${why ? `: ${why}` : ''}`;
  } catch (err) {
    if (err instanceof FetchError) return err.message;
    throw err;
  }
}

/**
 * The subscribe job: makes the reader's subscription for the feed be at `hub` for `topic` — a new
 * record (token, secret) when there is none or it was for another hub or topic (that one is ended),
 * else a renewal of the one there is. Nothing when nobody reads the feed any more.
 */
export async function subscribeAtHub(
  ctx: ReaderContext,
  feedId: number,
  target: WebSubTarget,
): Promise<'unsubscribed' | 'denied' | 'requested' | 'failed'> {
  const feed = await ctx.store.feedById(feedId);
  if (!feed || feed.subscriberCount <= 0) {
    await afterLastSubscriber(ctx, feedId);
    return 'unsubscribed';
  }
  const now = ctx.clock.nowDate();
  let doc = await activeOfFeed(ctx, feedId);
  if (doc && (doc.hub !== target.hub || doc.topic !== target.topic)) {
    await retire(ctx, doc);
    doc = null;
  }
  // A hub that said no is not asked again until the feed names another hub or topic.
  if (doc?.state === 'denied') return 'denied';
  if (!doc) {
    doc = {
      _id: token(),
      feedId,
      hub: target.hub,
      topic: target.topic,
      secret: token(),
      state: 'subscribing',
      pending: null,
      leaseSeconds: null,
      expiresAt: null,
      renewAt: null,
      attempts: 0,
      lastError: null,
      lastDeliveryAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.store.insertWebSub(doc);
  }
  // Expected before the request goes out: a hub may verify before it answers the request.
  await ctx.store.updateWebSub(doc._id, {
    pending: 'subscribe',
    renewAt: new Date(now.getTime() + VERIFY_WAIT_MS),
    updatedAt: now,
  });
  const error = await requestAtHub(ctx, doc, 'subscribe');
  if (error !== null) {
    ctx.logger.info({ feedId, hub: doc.hub, error }, 'websub subscription request failed');
    await ctx.store.updateWebSub(doc._id, { pending: null, lastError: error.slice(0, 500) });
    return 'failed';
  }
  return 'requested';
}

/** The unsubscribe job of one ending record. */
export async function unsubscribeAtHub(ctx: ReaderContext, tokenId: string): Promise<void> {
  const doc = await ctx.store.webSubByToken(tokenId);
  if (!doc || doc.state !== 'unsubscribing') return;
  const now = ctx.clock.nowDate();
  await ctx.store.updateWebSub(doc._id, {
    pending: 'unsubscribe',
    renewAt: new Date(now.getTime() + VERIFY_WAIT_MS),
    updatedAt: now,
  });
  const error = await requestAtHub(ctx, doc, 'unsubscribe');
  if (error === null) return;
  const attempts = doc.attempts + 1;
  if (attempts >= MAX_UNSUBSCRIBE_ATTEMPTS) {
    ctx.logger.info({ hub: doc.hub, error }, 'websub unsubscribe failed; the lease will run out');
    await ctx.store.deleteWebSub(doc._id);
    return;
  }
  await ctx.store.updateWebSub(doc._id, { pending: null, attempts, lastError: error.slice(0, 500) });
}

/** The scheduler's part: renewals and retries whose time has come, each handed to its job. */
export async function enqueueDueWebSub(ctx: ReaderContext): Promise<number> {
  if (!ctx.config.READER_WEBSUB) return 0;
  const now = ctx.clock.nowDate();
  const due = await ctx.store.dueWebSubs(now, 1000);
  for (const doc of due) {
    await ctx.store.updateWebSub(doc._id, { renewAt: new Date(now.getTime() + CLAIM_MS) });
    if (doc.state === 'unsubscribing') await queueWebSubUnsubscribe(ctx, doc._id);
    else await queueWebSubSubscribe(ctx, { feedId: doc.feedId, hub: doc.hub, topic: doc.topic });
  }
  return due.length;
}

export interface IntentQuery {
  mode?: string;
  topic?: string;
  challenge?: string;
  leaseSeconds?: string;
  reason?: string;
}

/**
 * A hub's GET at the callback: the challenge when it verifies a request we made for this callback and
 * topic, `null` for anything else (→ 404, WebSub §5.3). A denial is recorded (→ 200 without a body).
 */
export async function verifyIntent(
  ctx: ReaderContext,
  tokenId: string,
  q: IntentQuery,
): Promise<{ challenge: string } | { denied: true } | null> {
  const doc = await ctx.store.webSubByToken(tokenId);
  if (!doc || q.topic !== doc.topic) return null;
  const now = ctx.clock.nowDate();
  if (q.mode === 'denied') {
    if (doc.state === 'unsubscribing') await ctx.store.deleteWebSub(doc._id);
    else
      await ctx.store.updateWebSub(doc._id, {
        state: 'denied',
        pending: null,
        renewAt: null,
        expiresAt: null,
        lastError: `denied by the hub${q.reason ? `: ${q.reason.slice(0, 400)}` : ''}`,
        updatedAt: now,
      });
    ctx.logger.info({ feedId: doc.feedId, hub: doc.hub, reason: q.reason }, 'websub subscription denied');
    return { denied: true };
  }
  if (q.challenge === undefined || q.challenge === '') return null;
  if (q.mode === 'subscribe') {
    if (doc.pending !== 'subscribe' || (doc.state !== 'subscribing' && doc.state !== 'subscribed'))
      return null;
    const granted = Number(q.leaseSeconds);
    const lease =
      Number.isSafeInteger(granted) && granted > 0 ? granted : ctx.config.READER_WEBSUB_LEASE_SECONDS;
    const verified = await ctx.store.updateWebSubIn(doc._id, doc.state, {
      state: 'subscribed',
      pending: null,
      leaseSeconds: lease,
      expiresAt: new Date(now.getTime() + lease * 1000),
      renewAt: new Date(now.getTime() + Math.floor(lease * 1000 * RENEW_AT_SHARE)),
      lastError: null,
      updatedAt: now,
    });
    if (!verified) return null;
    // From now on the hub pushes: the next poll is the fallback, at the slow end of the interval.
    await ctx.store.setNextCheck(
      doc.feedId,
      new Date(now.getTime() + jittered(ctx.config.READER_POLL_MAX_MINUTES)),
    );
    return { challenge: q.challenge };
  }
  if (q.mode === 'unsubscribe') {
    if (doc.state !== 'unsubscribing' || doc.pending !== 'unsubscribe') return null;
    await ctx.store.deleteWebSub(doc._id);
    return { challenge: q.challenge };
  }
  return null;
}

/** Whether `header` (`method=hex`) is the HMAC of `body` with `secret`, in constant time. */
export function signatureMatches(header: string | undefined, body: Buffer, secret: string): boolean {
  if (!header) return false;
  const eq = header.indexOf('=');
  if (eq < 0) return false;
  const method = header.slice(0, eq).trim().toLowerCase();
  const given = header.slice(eq + 1).trim();
  if (!SIGNATURE_METHODS.has(method) || !/^[0-9a-f]+$/i.test(given)) return false;
  const expected = createHmac(method, secret).update(body).digest();
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export type DeliveryOutcome = 'gone' | 'bad-signature' | 'not-a-feed' | 'stored';

/**
 * A hub's POST at the callback: content for a subscription we hold, stored as a poll would store it
 * when its signature is right. `gone` (→ 410) tells the hub the subscription no longer exists; a
 * wrong or missing signature, or a body that is no feed, is acknowledged and stores nothing (§8).
 */
export async function receiveDelivery(
  ctx: ReaderContext,
  tokenId: string,
  delivery: { body: Buffer; contentType: string | undefined; signature: string | undefined },
): Promise<DeliveryOutcome> {
  const doc = await ctx.store.webSubByToken(tokenId);
  if (!doc || (doc.state !== 'subscribed' && doc.state !== 'subscribing')) return 'gone';
  if (!signatureMatches(delivery.signature, delivery.body, doc.secret)) {
    ctx.logger.warn(
      { feedId: doc.feedId, hub: doc.hub },
      'websub delivery ignored: signature missing or wrong',
    );
    return 'bad-signature';
  }
  const feed = await ctx.store.feedById(doc.feedId);
  if (!feed) return 'gone';
  let parsed;
  try {
    parsed = await ctx.parsing.parse(delivery.body, delivery.contentType, feed.url);
  } catch (err) {
    if (!(err instanceof FeedParseError)) throw err;
    parsed = null;
  }
  const nowMs = ctx.clock.nowDate().getTime();
  if (parsed?.kind !== 'feed') {
    ctx.logger.info({ feedId: feed._id, hub: doc.hub }, 'websub delivery ignored: not a feed');
    await ctx.store.updateWebSub(doc._id, {
      lastError: 'a delivery was not a feed',
      updatedAt: new Date(nowMs),
    });
    return 'not-a-feed';
  }
  const update = {
    url: feed.url,
    baseUrl: feed.url,
    // A delivery is no answer to a conditional GET: the validators stay the last poll's.
    etag: feed.etag,
    lastModified: feed.lastModified,
    nowMs,
    pollAfterMinutes: ctx.config.READER_POLL_MAX_MINUTES,
    checked: false,
  };
  try {
    await applyFeedDocument(ctx, feed, parsed.feed, update);
  } catch (err) {
    // A poll of the same feed stored some of these items meanwhile: once more, they are then known.
    if (!(err instanceof DuplicateKeyError)) throw err;
    const fresh = (await ctx.store.feedById(feed._id)) ?? feed;
    await applyFeedDocument(ctx, fresh, parsed.feed, update);
  }
  await ctx.store.updateWebSub(doc._id, { lastDeliveryAt: new Date(nowMs) });
  return 'stored';
}
