// Receiving a webmention (docs/api/webmention.md, "Receiving"): the synchronous checks in their order,
// each refusal a one-line reason (the route renders it as text/plain), then one verification job per
// (source, target) while one is pending. Nothing from the source is read here.
import { badRequest } from '@murmur/core';
import { literalAddressRefusal } from '@murmur/fetch';
import { lastValue as lastOf } from '@murmur/http';
import { enqueueJob } from '@murmur/jobs';
import { pairId } from '../store/index.js';
import type { WebmentionContext } from './context.js';
import { verifyMentionJob } from './jobs.js';
import { ownerOfTarget } from './targets.js';
import { checkHttpUrl, schemelessKey, withoutFragment } from './urls.js';

export const NOT_OURS = 'target is not a resource of this service';
export const NOT_ACCEPTED = 'source is not accepted by this service';

/**
 * The last value of a parameter (docs/api/conventions.md: repeated names, last wins); undefined when
 * absent. A JSON array or object is refused: it is no URL.
 */
function lastValue(raw: unknown, name: string): string | undefined {
  const value = lastOf(raw);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') throw badRequest(`${name} must be a string`, name);
  if (typeof value !== 'string') return String(value);
  return value;
}

export interface ReceivedPair {
  source: string;
  target: string;
  targetUserId: number | null;
}

/** Checks 1–4 and the blocks; throws 400 with the reason of the first failing check. */
export async function checkPair(
  ctx: WebmentionContext,
  params: Record<string, unknown>,
): Promise<ReceivedPair & { sourceHost: string }> {
  const rawSource = lastValue(params.source, 'source')?.trim();
  const rawTarget = lastValue(params.target, 'target')?.trim();
  if (rawSource === undefined || rawSource === '') throw badRequest('source is required', 'source');
  if (rawTarget === undefined || rawTarget === '') throw badRequest('target is required', 'target');
  if (rawSource.includes('\u0000') || rawTarget.includes('\u0000')) {
    throw badRequest(`${rawSource.includes('\u0000') ? 'source' : 'target'} is not a valid URL`);
  }
  const source = checkHttpUrl('source', rawSource);
  if (!source.ok) throw badRequest(source.reason, 'source');
  const target = checkHttpUrl('target', rawTarget);
  if (!target.ok) throw badRequest(target.reason, 'target');
  // The address literal on its own (whatever the port or user info), under the fetcher's policy: what
  // the fetch would refuse is refused now, and what the operator allows (OUTBOUND_ALLOW_PRIVATE,
  // OUTBOUND_ALLOW_HOSTS) is accepted now. Host names are checked when the fetcher resolves them.
  if (literalAddressRefusal(source.url, ctx.fetcher.policy) !== undefined)
    throw badRequest('source must not be a loopback, private or link-local address', 'source');

  const sourceUrl = withoutFragment(source.url);
  const targetUrl = withoutFragment(target.url);
  if (sourceUrl === targetUrl) throw badRequest('source and target must be different URLs', 'source');

  const owner = await ownerOfTarget(ctx, targetUrl);
  if (owner === undefined) throw badRequest(NOT_OURS, 'target');

  const sourceHost = source.url.hostname.toLowerCase();
  if (await ctx.store.isBlocked(sourceHost, owner)) throw badRequest(NOT_ACCEPTED, 'source');
  // The source is kept as sent (with its fragment removed): it is what the sender will resend.
  return { source: sourceUrl, target: targetUrl, targetUserId: owner, sourceHost };
}

/** Accepts a pair: counts it against its source host, records it and queues its verification. */
export async function receive(ctx: WebmentionContext, params: Record<string, unknown>): Promise<void> {
  const pair = await checkPair(ctx, params);
  await ctx.limits.enforce(
    'perSourceHost',
    pair.sourceHost,
    `too many webmentions from ${pair.sourceHost}; try again later`,
  );
  const id = pairId(pair.source, pair.target);
  // The record (status `queued`, for GET /webmention/mine) and the job are written in the same turn,
  // so one fsync makes both durable (docs/adr/0011-webmention.md, "Revision: one fsync per accepted
  // POST"). Either order is safe: the job creates a missing record, and a record without its job is
  // queued again by the sender's retry after the error. The job's key makes a second POST of the pair
  // return the pending job instead of adding one.
  const [recorded, queued] = await Promise.allSettled([
    ctx.store.receivedPair(
      {
        _id: id,
        source: pair.source,
        target: pair.target,
        targetKey: schemelessKey(pair.target),
        sourceHost: pair.sourceHost,
        targetUserId: pair.targetUserId,
      },
      ctx.clock.now(),
    ),
    enqueueJob(
      ctx.jobs,
      verifyMentionJob,
      { source: pair.source, target: pair.target },
      { key: `verify:${id}` },
    ),
  ]);
  if (recorded.status === 'rejected') throw recorded.reason;
  if (queued.status === 'rejected') throw queued.reason;
}
