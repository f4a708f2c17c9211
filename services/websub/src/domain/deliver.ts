// Delivering a content to the subscriptions of one callback host (docs/api/websub.md, "Delivery"): a
// POST of the topic's document with its Content-Type, `Link: <hub>; rel="hub", <topic>; rel="self"`
// and, for a subscription made with a secret, `X-Hub-Signature: <algorithm>=<hex HMAC of the body>`,
// through the safe fetcher. 2xx delivers; 5xx, 429, 408, timeouts and unreachable hosts are retried
// with backoff for the subscriptions still owed; 410 ends the subscription; another 4xx, a refused
// address or a redirect drops that delivery. A job run twice sends nothing twice that was delivered.
import { createHmac } from 'node:crypto';
import { ConcurrencyLimit, hubLinkHeader } from '@murmur/core';
import { FetchBlockedError, FetchError, FetchRedirectError } from '@murmur/fetch';
import type { Job } from '@murmur/jobs';
import type { SignatureAlgorithm } from '../config.js';
import type { SubscriptionDoc } from '../store.js';
import type { WebsubContext } from './context.js';

const DELIVERY_LIMITS = { timeoutMs: 15_000, connectTimeoutMs: 5_000, maxBytes: 64 * 1024, maxRedirects: 0 };

/** `sha256=…`: the HMAC of the body with the subscriber's secret (the WebSub recommendation, 8). */
export function signatureOf(algorithm: SignatureAlgorithm, secret: string, body: Buffer): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
}

export const linkHeader = hubLinkHeader;

type Outcome = { id: string; result: 'done' | 'dropped' | 'gone' | 'retry'; reason?: string };

async function contentOf(ctx: WebsubContext, contentId: string) {
  const hit = ctx.contentCache.get(contentId);
  if (hit) return hit;
  const doc = await ctx.store.content(contentId);
  if (!doc) return undefined;
  const entry = { body: Buffer.from(doc.body, 'base64'), contentType: doc.contentType, topic: doc.topic };
  if (ctx.contentCache.size >= 64) ctx.contentCache.delete(ctx.contentCache.keys().next().value!);
  ctx.contentCache.set(contentId, entry);
  return entry;
}

export async function deliverContent(
  ctx: WebsubContext,
  payload: { contentId: string; host: string; subscriptions: string[] },
  job: Pick<Job, 'attempts' | 'maxAttempts'>,
): Promise<void> {
  const content = await contentOf(ctx, payload.contentId);
  if (!content) return; // kept a week: a job older than that has nothing left to send
  const recordId = `${payload.contentId}|${payload.host}`;
  const record = await ctx.store.openDelivery(recordId, ctx.clock.now());
  const settled = new Set([...record.done, ...record.dropped]);
  const owed = payload.subscriptions.filter((id) => !settled.has(id));
  if (owed.length === 0) return;
  // A lease that ended since the content was distributed gets nothing more.
  const subscriptions = await ctx.store.liveSubscriptionsByIds(owed, ctx.clock.now());
  const turns = new ConcurrencyLimit(ctx.config.WEBSUB_HOST_CONCURRENCY);
  const link = linkHeader(ctx.hubUrl, content.topic);
  const outcomes = await Promise.all(
    subscriptions.map((s) => turns.run(() => postTo(ctx, s, content.body, content.contentType, link))),
  );
  const live = new Set(subscriptions.map((s) => s._id));
  const expired = owed.filter((id) => !live.has(id));
  const done = outcomes.filter((o) => o.result === 'done').map((o) => o.id);
  const dropped = outcomes.filter((o) => o.result === 'dropped' || o.result === 'gone');
  const retry = outcomes.filter((o) => o.result === 'retry');
  for (const gone of outcomes.filter((o) => o.result === 'gone')) {
    const s = subscriptions.find((x) => x._id === gone.id)!;
    await ctx.store.deleteSubscription(s.topic, s.callback);
  }
  for (const d of dropped)
    ctx.logger.info({ subscription: d.id, reason: d.reason }, 'websub delivery dropped');
  const last = job.attempts >= job.maxAttempts;
  await ctx.store.recordDeliveryProgress(
    recordId,
    {
      done,
      dropped: [...dropped.map((o) => o.id), ...expired],
      status: retry.length === 0 ? 'delivered' : last ? 'failed' : 'retrying',
      ...(retry.length > 0 ? { lastError: retry[0]!.reason ?? 'failed' } : {}),
    },
    ctx.clock.now(),
  );
  if (retry.length > 0)
    throw new Error(`${retry.length} of ${owed.length} callbacks of ${payload.host}: ${retry[0]!.reason}`);
}

async function postTo(
  ctx: WebsubContext,
  s: SubscriptionDoc,
  body: Buffer,
  contentType: string,
  link: string,
): Promise<Outcome> {
  try {
    const res = await ctx.fetcher.fetch(s.callback, {
      ...DELIVERY_LIMITS,
      method: 'POST',
      body,
      headers: {
        'content-type': contentType,
        link,
        ...(s.secret === undefined
          ? {}
          : { 'x-hub-signature': signatureOf(ctx.config.WEBSUB_SIGNATURE_ALGORITHM, s.secret, body) }),
      },
    });
    if (res.status >= 200 && res.status < 300) return { id: s._id, result: 'done' };
    const reason = `${s.callback} answered ${res.status}`;
    if (res.status === 429 || res.status === 408 || res.status >= 500)
      return { id: s._id, result: 'retry', reason };
    if (res.status === 410) return { id: s._id, result: 'gone', reason };
    return { id: s._id, result: 'dropped', reason };
  } catch (err) {
    if (err instanceof FetchBlockedError || err instanceof FetchRedirectError)
      return { id: s._id, result: 'dropped', reason: err.message };
    if (err instanceof FetchError) return { id: s._id, result: 'retry', reason: err.message };
    throw err;
  }
}
