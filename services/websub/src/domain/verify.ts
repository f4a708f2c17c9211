// Verifying a subscriber's intent (docs/api/websub.md, "Verification"): a GET on the callback, through
// the safe fetcher, with hub.mode, hub.topic, a fresh hub.challenge and (to subscribe) the granted
// hub.lease_seconds. Only a 2xx answer whose body is the challenge confirms; then the subscription is
// recorded (or renewed, keyed on topic and callback) or removed. Anything else changes nothing.
import { randomBytes } from 'node:crypto';
import { FetchBlockedError, FetchError, FetchRedirectError } from '@murmur/fetch';
import type { Job } from '@murmur/jobs';
import type { WebsubContext } from './context.js';
import { fetchTopic } from './documents.js';
import { contentHashOf } from './content.js';
import { recognizeTopic } from './topics.js';

const VERIFY_LIMITS = { timeoutMs: 10_000, connectTimeoutMs: 5_000, maxBytes: 64 * 1024, maxRedirects: 0 };

export interface Intent {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  leaseSeconds: number;
  secret?: string | undefined;
}

/** The verification URL: the callback with the hub's parameters added to its own query. */
export function verificationUrl(intent: Intent, challenge: string): URL {
  const url = new URL(intent.callback);
  url.searchParams.append('hub.mode', intent.mode);
  url.searchParams.append('hub.topic', intent.topic);
  url.searchParams.append('hub.challenge', challenge);
  if (intent.mode === 'subscribe') url.searchParams.append('hub.lease_seconds', String(intent.leaseSeconds));
  return url;
}

export async function verifyIntent(
  ctx: WebsubContext,
  intent: Intent,
  _job: Pick<Job, 'attempts' | 'maxAttempts'>,
): Promise<void> {
  const challenge = randomBytes(24).toString('base64url');
  let status: number;
  let body: string;
  try {
    const res = await ctx.fetcher.fetch(verificationUrl(intent, challenge), {
      ...VERIFY_LIMITS,
      method: 'GET',
    });
    status = res.status;
    body = res.body.toString('utf8');
  } catch (err) {
    if (err instanceof FetchBlockedError || err instanceof FetchRedirectError) {
      ctx.logger.info({ callback: intent.callback, reason: err.message }, 'websub verification refused');
      return;
    }
    // Unreachable or slow (FetchError): asked again with backoff, then given up (the subscriber asks again).
    if (err instanceof FetchError)
      ctx.logger.info({ callback: intent.callback }, 'websub callback unreachable');
    throw err;
  }
  if (status < 200 || status > 299 || body.trim() !== challenge) {
    ctx.logger.info(
      { callback: intent.callback, topic: intent.topic, mode: intent.mode, status },
      'websub intent not confirmed',
    );
    return;
  }
  const now = ctx.clock.now();
  if (intent.mode === 'unsubscribe') {
    await ctx.store.deleteSubscription(intent.topic, intent.callback);
    return;
  }
  await baseline(ctx, intent.topic);
  await ctx.store.upsertSubscription(
    {
      topic: intent.topic,
      callback: intent.callback,
      callbackHost: new URL(intent.callback).host.toLowerCase(),
      leaseSeconds: intent.leaseSeconds,
      ...(intent.secret === undefined ? {} : { secret: intent.secret }),
    },
    now,
  );
}

/**
 * The first subscription of a topic records its current document as already distributed, so the next
 * delivery is a change and never the document the subscriber could have fetched itself.
 */
async function baseline(ctx: WebsubContext, topicUrl: string): Promise<void> {
  if ((await ctx.store.topic(topicUrl))?.contentHash !== undefined) return;
  try {
    const topic = await recognizeTopic(ctx, new URL(topicUrl));
    const doc = await fetchTopic(ctx, topic);
    if (doc.status !== 200) return;
    await ctx.store.claimContent(topicUrl, contentHashOf(doc), doc.etag, ctx.clock.now());
  } catch (err) {
    ctx.logger.info({ topic: topicUrl, err: (err as Error).message }, 'websub topic baseline not read');
  }
}
