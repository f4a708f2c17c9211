// Content distribution (docs/api/websub.md, "Delivery"): a topic's current document is read; when it
// differs from the one last distributed it is kept once and one delivery job per callback host is
// queued for the live subscriptions. Leases that have ended are dropped here, before anyone is counted.
import { createHash } from 'node:crypto';
import { enqueueJob } from '@murmur/jobs';
import type { WebsubContext } from './context.js';
import { fetchTopic, type TopicDocument } from './documents.js';
import { deliverContentJob, refreshTopicJob } from './jobs.js';
import { recognizeTopic } from './topics.js';

/**
 * Rounds of looking again at a topic an event changes while its service has not applied the event
 * yet: after 0.5, 1, 2, 4, 8 and 16 s.
 */
export const EXPECT_ROUNDS = 6;
const ROUND_BASE_MS = 500;

export function contentHashOf(doc: Pick<TopicDocument, 'contentType' | 'body'>): string {
  return createHash('sha256').update(doc.contentType).update('\u0000').update(doc.body).digest('base64url');
}

export const contentIdOf = (topic: string, hash: string): string =>
  createHash('sha256').update(topic).update('\u0000').update(hash).digest('base64url').slice(0, 32);

/** Queues a refresh of each topic (those with no live subscriber cost nothing more than a lookup). */
export async function refreshTopics(
  ctx: WebsubContext,
  topics: Iterable<{ topic: string; expectChange: boolean }>,
): Promise<void> {
  for (const t of topics) {
    await enqueueJob(ctx.jobs, refreshTopicJob, { topic: t.topic, expectChange: t.expectChange, round: 0 });
  }
}

export async function refreshTopic(
  ctx: WebsubContext,
  payload: { topic: string; expectChange: boolean; round: number },
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.dropExpired(now);
  const subscriptions = await ctx.store.liveSubscriptions(payload.topic, now);
  if (subscriptions.length === 0) return;
  const topic = await recognizeTopic(ctx, new URL(payload.topic));
  const known = await ctx.store.topic(payload.topic);
  const doc = await fetchTopic(ctx, topic, known?.contentHash === undefined ? undefined : known.etag);
  if (doc.status === 304) return lookAgain(ctx, payload);
  if (doc.status === 404 || doc.status === 410) return; // the feed is gone: nothing to distribute
  if (doc.status !== 200) throw new Error(`${payload.topic} answered ${doc.status}`);
  const hash = contentHashOf(doc);
  if (!(await ctx.store.claimContent(payload.topic, hash, doc.etag, now))) return lookAgain(ctx, payload);

  const contentId = contentIdOf(payload.topic, hash);
  await ctx.store.keepContent({
    _id: contentId,
    topic: payload.topic,
    body: doc.body.toString('base64'),
    contentType: doc.contentType,
    createdAt: now,
  });
  const byHost = new Map<string, string[]>();
  for (const s of subscriptions) {
    let list = byHost.get(s.callbackHost);
    if (!list) byHost.set(s.callbackHost, (list = []));
    list.push(s._id);
  }
  ctx.logger.info(
    { topic: payload.topic, subscriptions: subscriptions.length, hosts: byHost.size },
    'websub content distributed',
  );
  for (const [host, ids] of byHost) {
    await enqueueJob(
      ctx.jobs,
      deliverContentJob,
      { contentId, host, subscriptions: ids },
      { key: `deliver:${contentId}:${host}`, maxAttempts: ctx.config.WEBSUB_DELIVERY_ATTEMPTS },
    );
  }
}

/** The document has not changed: when the event promised a change, look again a little later. */
async function lookAgain(
  ctx: WebsubContext,
  payload: { topic: string; expectChange: boolean; round: number },
): Promise<void> {
  if (!payload.expectChange || payload.round + 1 >= EXPECT_ROUNDS) return;
  await enqueueJob(
    ctx.jobs,
    refreshTopicJob,
    { ...payload, round: payload.round + 1 },
    { runAt: new Date(ctx.clock.nowMs() + ROUND_BASE_MS * 2 ** payload.round) },
  );
}
