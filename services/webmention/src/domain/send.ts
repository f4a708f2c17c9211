// Sending webmentions for Murmur's own posts (docs/api/webmention.md, "Sending"): for each link of a
// published, edited or deleted post, discover the linked page's endpoint — the HTTP Link header first,
// then the first <link>/<a rel="webmention"> — and POST source=permalink, target=link to it, all
// through the safe fetcher. One job and one record per (permalink, link); transient failures retry.
import {
  FETCH_LIMITS,
  FetchBlockedError,
  FetchRedirectError,
  FetchTooLargeError,
  type FetchResponse,
} from '@murmur/fetch';
import { enqueueJob, type Job } from '@murmur/jobs';
import { pairId, type SendDoc } from '../store/index.js';
import type { WebmentionContext } from './context.js';
import { sendMentionJob } from './jobs.js';
import { htmlEndpoint, kindOf, linkHeaderEndpoints } from './links.js';
import { retryAfterMs } from './verify.js';

const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';

export async function queueSends(
  ctx: WebmentionContext,
  postId: number,
  permalink: string,
  targets: string[],
): Promise<void> {
  for (const target of targets) {
    const id = pairId(permalink, target);
    await ctx.store.recordSend({
      _id: id,
      postId,
      source: permalink,
      target,
      status: 'queued',
      updatedAt: ctx.clock.now(),
    });
    await enqueueJob(ctx.jobs, sendMentionJob, { postId, source: permalink, target }, { key: `send:${id}` });
  }
}

class RetrySend extends Error {
  override name = 'RetrySend';
  /** The answer's Retry-After: the job queue waits at least this long. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, retryAfterMs?: number) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

type Outcome = Pick<SendDoc, 'status'> & Partial<Pick<SendDoc, 'endpoint' | 'responseStatus' | 'lastError'>>;

async function fetchOrOutcome(
  ctx: WebmentionContext,
  url: string,
  request: Parameters<WebmentionContext['fetcher']['fetch']>[1],
): Promise<FetchResponse | Outcome> {
  try {
    return await ctx.fetcher.fetch(url, request);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (
      err instanceof FetchBlockedError ||
      err instanceof FetchRedirectError ||
      err instanceof FetchTooLargeError
    ) {
      return { status: 'refused', lastError: message };
    }
    throw new RetrySend(message);
  }
}

/** The target's webmention endpoint, or undefined when it advertises none. */
export async function discoverEndpoint(
  ctx: WebmentionContext,
  target: string,
): Promise<string | Outcome | undefined> {
  // The same limits as a source: a huge page is read up to 1 MB (the endpoint is in its head or headers).
  const res = await fetchOrOutcome(ctx, target, { ...FETCH_LIMITS.webmention, accept: PAGE_ACCEPT });
  if (!('body' in res)) return res;
  if (res.status === 429 || res.status >= 500) {
    const wait = retryAfterMs(res.headers['retry-after'], ctx.clock.nowMs());
    throw new RetrySend(`target answered ${res.status}`, wait);
  }
  if (res.status < 200 || res.status >= 300) return undefined;
  const fromHeader = linkHeaderEndpoints(res.headers.link, res.url)[0];
  if (fromHeader !== undefined) return fromHeader;
  if (kindOf(res.headers['content-type']) !== 'html') return undefined;
  return htmlEndpoint(res.body.toString('utf8'), res.url);
}

async function deliver(ctx: WebmentionContext, source: string, target: string): Promise<Outcome> {
  const endpoint = await discoverEndpoint(ctx, target);
  if (endpoint === undefined) return { status: 'no_endpoint' };
  if (typeof endpoint !== 'string') return endpoint;
  const body = new URLSearchParams({ source, target }).toString();
  const res = await fetchOrOutcome(ctx, endpoint, {
    ...FETCH_LIMITS.webmention,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    accept: '*/*',
  });
  if (!('body' in res)) return { ...res, endpoint };
  if (res.status === 429 || res.status >= 500) {
    const wait = retryAfterMs(res.headers['retry-after'], ctx.clock.nowMs());
    throw new RetrySend(`endpoint answered ${res.status}`, wait);
  }
  if (res.status >= 200 && res.status < 300) return { status: 'sent', endpoint, responseStatus: res.status };
  return {
    status: 'refused',
    endpoint,
    responseStatus: res.status,
    lastError: `endpoint answered ${res.status}`,
  };
}

export async function sendMention(
  ctx: WebmentionContext,
  postId: number,
  source: string,
  target: string,
  job: Pick<Job, 'attempts' | 'maxAttempts'>,
): Promise<void> {
  const record = (o: Outcome) =>
    ctx.store.recordSend({
      _id: pairId(source, target),
      postId,
      source,
      target,
      ...o,
      updatedAt: ctx.clock.now(),
    });
  try {
    await record(await deliver(ctx, source, target));
  } catch (err) {
    if (!(err instanceof RetrySend)) throw err;
    if (job.attempts >= job.maxAttempts) {
      await record({ status: 'failed', lastError: err.message });
      return;
    }
    await record({ status: 'retrying', lastError: err.message });
    throw err;
  }
}
