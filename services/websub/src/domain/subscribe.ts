// The hub endpoint (docs/api/websub.md, "Subscribing" and "Publishing"): the synchronous checks of a
// subscription request, each refusal a one-line reason; then the intent verification as a job (the
// answer is 202 before the callback is asked). hub.mode=publish refreshes a topic of a publisher the
// operator allows.
import { badRequest, forbidden } from '@murmur/core';
import { literalAddressRefusal } from '@murmur/fetch';
import { lastValue } from '@murmur/http';
import { enqueueJob } from '@murmur/jobs';
import type { WebsubContext } from './context.js';
import { fetchTopic } from './documents.js';
import { refreshTopicJob, verifyIntentJob } from './jobs.js';
import { parseUrlParam, publisherHostAllowed, recognizeTopic } from './topics.js';

/** hub.secret must be shorter than this many bytes (the WebSub recommendation, 5.1). */
export const MAX_SECRET_BYTES = 200;

function param(params: Record<string, unknown>, name: string): string | undefined {
  const value = lastValue(params[name]);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') throw badRequest(`${name} must be a string`, name);
  return String(value);
}

/** Lease granted for a request: the default when absent, else clamped to [min, max]. */
export function grantedLease(ctx: WebsubContext, raw: string | undefined): number {
  const {
    WEBSUB_LEASE_DEFAULT_SECONDS: def,
    WEBSUB_LEASE_MIN_SECONDS: min,
    WEBSUB_LEASE_MAX_SECONDS: max,
  } = ctx.config;
  if (raw === undefined || raw.trim() === '') return Math.min(max, Math.max(min, def));
  if (!/^\d{1,12}$/.test(raw.trim()))
    throw badRequest('hub.lease_seconds must be a positive integer', 'hub.lease_seconds');
  const asked = Number(raw.trim());
  if (asked < 1) throw badRequest('hub.lease_seconds must be a positive integer', 'hub.lease_seconds');
  return Math.min(max, Math.max(min, asked));
}

export async function hubRequest(ctx: WebsubContext, params: Record<string, unknown>): Promise<void> {
  const mode = param(params, 'hub.mode')?.trim();
  if (mode === undefined || mode === '') throw badRequest('hub.mode is required', 'hub.mode');
  if (mode === 'subscribe' || mode === 'unsubscribe') return subscription(ctx, mode, params);
  if (mode === 'publish') return publish(ctx, params);
  throw badRequest('hub.mode must be subscribe, unsubscribe or publish', 'hub.mode');
}

async function subscription(
  ctx: WebsubContext,
  mode: 'subscribe' | 'unsubscribe',
  params: Record<string, unknown>,
): Promise<void> {
  const callback = parseUrlParam('hub.callback', param(params, 'hub.callback'));
  // What the fetcher would refuse (loopback, private, link-local literals) is refused now; names are
  // checked when the fetcher resolves them (docs/security.md, outbound fetches).
  if (literalAddressRefusal(callback, ctx.fetcher.policy) !== undefined)
    throw badRequest('hub.callback must not be a loopback, private or link-local address', 'hub.callback');
  const topicUrl = parseUrlParam('hub.topic', param(params, 'hub.topic'));
  // An existing subscription can always be ended, even of a topic the hub no longer serves (a user
  // gone, a publisher host no longer allowed).
  const existing = mode === 'unsubscribe' ? await ctx.store.subscription(topicUrl.href, callback.href) : null;
  const topic = existing ? { url: existing.topic } : await recognizeTopic(ctx, topicUrl);
  const secret = param(params, 'hub.secret');
  if (secret !== undefined && Buffer.byteLength(secret, 'utf8') >= MAX_SECRET_BYTES)
    throw badRequest(`hub.secret must be shorter than ${MAX_SECRET_BYTES} bytes`, 'hub.secret');
  const leaseSeconds = grantedLease(ctx, param(params, 'hub.lease_seconds'));
  if (mode === 'subscribe' && 'own' in topic && topic.own) {
    // An own feed that does not exist (an unknown user) is no topic: refused now, not after verifying.
    const doc = await fetchTopic(ctx, topic);
    if (doc.status !== 200)
      throw badRequest(`hub.topic does not exist (the feed answers ${doc.status})`, 'hub.topic');
  }
  await enqueueJob(
    ctx.jobs,
    verifyIntentJob,
    {
      mode,
      topic: topic.url,
      callback: callback.href,
      leaseSeconds,
      ...(secret === undefined || secret === '' ? {} : { secret }),
    },
    // Three attempts: a callback that stays unreachable is not subscribed (its subscriber asks again).
    { maxAttempts: 3 },
  );
}

async function publish(ctx: WebsubContext, params: Record<string, unknown>): Promise<void> {
  // Publishers send hub.topic (WebSub) or hub.url (PubSubHubbub 0.4); either names the topic.
  const raw = param(params, 'hub.topic') ?? param(params, 'hub.url');
  const url = parseUrlParam('hub.topic', raw);
  let topic;
  try {
    topic = await recognizeTopic(ctx, url);
  } catch {
    throw forbidden(
      `hub.mode=publish is accepted only for Murmur's own feeds and topics on hosts the operator allows; ${url.host} is not one`,
      'publisher_not_allowed',
    );
  }
  if (topic.kind === 'external' && !publisherHostAllowed(ctx, url)) throw forbidden();
  await enqueueJob(ctx.jobs, refreshTopicJob, { topic: topic.url, expectChange: false, round: 0 });
}
