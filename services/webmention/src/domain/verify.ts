// Verifying a received webmention in the background (docs/api/webmention.md, "Verification"): fetch the
// source through the safe fetcher (every redirect hop re-checked, first 1 MB, connect 5 s, total 10 s),
// decide by its answer, and upsert or remove the mention. Transient failures are retried by the job
// queue with backoff and jitter; after the last attempt the status is `failed` and a stored mention
// stays as it was.
import { createHash } from 'node:crypto';
import {
  FETCH_LIMITS,
  FetchBlockedError,
  FetchRedirectError,
  FetchTooLargeError,
  ParseBusyError,
  ParseError,
  type FetchResponse,
} from '@murmur/fetch';
import { type Job } from '@murmur/jobs';
import { pairId, type MentionDoc, type MentionStatus } from '../store/index.js';
import type { WebmentionContext } from './context.js';
import { recordDeleted, recordVerified } from './events.js';
import { kindOf, linksTo, scanLinks } from './links.js';
import { plainMention, type ParsedMention } from './parse.js';
import type { MentionSource } from './parse-tasks.js';
import { ownerOfTarget } from './targets.js';
import { schemelessKey } from './urls.js';

/**
 * CPU time the microformats parse of one source may take (in the parser thread); a source needing more
 * is kept as a plain mention with its title (docs/api/webmention.md, "Parsing").
 */
export const MENTION_PARSE_TIMEOUT_MS = 5_000;

export const SOURCE_ACCEPT =
  'text/html, application/xhtml+xml;q=0.9, application/json;q=0.8, text/plain;q=0.7, */*;q=0.1';

/** A failure worth another attempt (429, 5xx, timeouts, DNS and connection failures). */
export class TransientSourceError extends Error {
  override name = 'TransientSourceError';
  /** The source's Retry-After: the job queue waits at least this long before the next attempt. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, retryAfterMs?: number) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** Retry-After as delay seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `nowMs`; else undefined. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) && at > nowMs ? at - nowMs : undefined;
}

function decode(res: FetchResponse): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(res.headers['content-type'] ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(res.body);
  } catch {
    return new TextDecoder('utf-8').decode(res.body);
  }
}

export async function loadPair(ctx: WebmentionContext, source: string, target: string): Promise<MentionDoc> {
  const id = pairId(source, target);
  const existing = await ctx.store.mention(id);
  if (existing) return existing;
  const owner = await ownerOfTarget(ctx, target);
  await ctx.store.receivedPair(
    {
      _id: id,
      source,
      target,
      targetKey: schemelessKey(target),
      sourceHost: new URL(source).hostname.toLowerCase(),
      targetUserId: owner ?? null,
    },
    ctx.clock.now(),
  );
  return (await ctx.store.mention(id))!;
}

/** The mention leaves every view (if it was shown), with `status` recorded. */
export async function remove(
  ctx: WebmentionContext,
  doc: MentionDoc,
  status: MentionStatus,
  reason?: string,
): Promise<void> {
  const now = ctx.clock.now();
  if (!doc.visible) {
    await ctx.store.setMentionStatus(doc._id, status, now, reason);
    return;
  }
  const rev = doc.rev + 1;
  const set: Partial<MentionDoc> = { visible: false, status, rev, updatedAt: now, checkedAt: now };
  if (reason !== undefined) set.lastError = reason;
  const unset = ['contentHtml', 'contentText', 'fingerprint', ...(reason === undefined ? ['lastError'] : [])];
  if (!(await ctx.store.updateMention(doc._id, doc.rev, set, unset))) return;
  await ctx.store.bumpTarget(doc.targetKey);
  await recordDeleted(ctx, { ...doc, ...set } as MentionDoc);
}

function fingerprintOf(m: ParsedMention): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        m.type,
        m.url,
        m.author,
        m.contentHtml,
        m.contentText,
        m.name ?? null,
        m.publishedMs ?? null,
      ]),
    )
    .digest('base64url');
}

export async function upsert(ctx: WebmentionContext, doc: MentionDoc, parsed: ParsedMention): Promise<void> {
  const now = ctx.clock.now();
  if (doc.removedByOwner) {
    await ctx.store.setMentionStatus(doc._id, 'removed_by_owner', now);
    return;
  }
  const fingerprint = fingerprintOf(parsed);
  if (doc.visible && doc.fingerprint === fingerprint) {
    // Unchanged: nothing to show anew. Recording the current revision again is a no-op unless an
    // earlier run stopped between its write and the outbox.
    await ctx.store.setMentionStatus(doc._id, 'verified', now);
    await recordVerified(ctx, doc);
    return;
  }
  const wmId = doc.wmId ?? (await ctx.store.nextWmId());
  const receivedAt = doc.receivedAt ?? now;
  const rev = doc.rev + 1;
  const set: Partial<MentionDoc> = {
    wmId,
    rev,
    shownAtRev: doc.visible ? doc.shownAtRev : rev,
    visible: true,
    status: 'verified',
    type: parsed.type,
    url: parsed.url,
    author: parsed.author,
    contentHtml: parsed.contentHtml,
    contentText: parsed.contentText,
    ...(parsed.name === undefined ? {} : { name: parsed.name }),
    published: parsed.publishedMs === undefined ? receivedAt : new Date(parsed.publishedMs),
    publishedGiven: parsed.publishedMs !== undefined,
    receivedAt,
    fingerprint,
    updatedAt: now,
    checkedAt: now,
  };
  if (
    !(await ctx.store.updateMention(
      doc._id,
      doc.rev,
      set,
      parsed.name === undefined ? ['lastError', 'name'] : ['lastError'],
    ))
  )
    return;
  await ctx.store.bumpTarget(doc.targetKey);
  await recordVerified(ctx, { ...doc, ...set } as MentionDoc);
}

async function transient(
  ctx: WebmentionContext,
  doc: MentionDoc,
  job: Pick<Job, 'attempts' | 'maxAttempts'>,
  reason: string,
  waitMs?: number,
): Promise<void> {
  const now = ctx.clock.now();
  if (job.attempts >= job.maxAttempts) {
    // Out of attempts: a shown mention stays as it was; only the status says what happened.
    await ctx.store.setMentionStatus(doc._id, 'failed', now, reason);
    return;
  }
  await ctx.store.setMentionStatus(doc._id, 'retrying', now, reason);
  throw new TransientSourceError(reason, waitMs);
}

export async function verifyMention(
  ctx: WebmentionContext,
  source: string,
  target: string,
  job: Pick<Job, 'attempts' | 'maxAttempts'>,
): Promise<void> {
  let doc = await loadPair(ctx, source, target);
  const owner = await ownerOfTarget(ctx, target);
  if (owner !== undefined && owner !== doc.targetUserId) {
    doc = { ...doc, targetUserId: owner };
    await ctx.store.updateMention(doc._id, doc.rev, { targetUserId: owner });
  }
  if (await ctx.store.isBlocked(doc.sourceHost, doc.targetUserId)) {
    return remove(ctx, doc, 'blocked', 'source host is blocked');
  }

  let res: FetchResponse;
  try {
    res = await ctx.hostTurns.run(doc.sourceHost, () =>
      ctx.fetcher.fetch(source, { ...FETCH_LIMITS.webmention, accept: SOURCE_ACCEPT }),
    );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof FetchBlockedError) return remove(ctx, doc, 'blocked', message);
    if (err instanceof FetchRedirectError || err instanceof FetchTooLargeError) {
      return remove(ctx, doc, 'source_not_found', message);
    }
    return transient(ctx, doc, job, message);
  }

  if (res.status === 410) return remove(ctx, doc, 'deleted');
  if (res.status === 429 || res.status >= 500) {
    const wait = retryAfterMs(res.headers['retry-after'], ctx.clock.nowMs());
    return transient(ctx, doc, job, `source answered ${res.status}`, wait);
  }
  if (res.status < 200 || res.status >= 300) {
    return remove(ctx, doc, 'source_not_found', `source answered ${res.status}`);
  }

  const kind = kindOf(res.headers['content-type']);
  const body = kind === 'other' ? '' : decode(res);
  const links = kind === 'html' ? await scanLinks(body) : undefined;
  if (!(await linksTo(kind, links ?? body, res.url, target))) return remove(ctx, doc, 'no_link');
  if (!links) return upsert(ctx, doc, plainMention(source));
  const input: MentionSource = { html: body, finalUrl: res.url, source, target, title: links.title };
  let parsed: ParsedMention;
  try {
    parsed = await ctx.parser.run<ParsedMention>('parseMention', input);
  } catch (err) {
    if (err instanceof ParseBusyError) return transient(ctx, doc, job, err.message);
    if (!(err instanceof ParseError)) throw err;
    // Too costly to parse (or it broke the parser): the mention stands, without content.
    ctx.logger.warn({ source, reason: err.message }, 'webmention source not parsed');
    parsed = plainMention(source, links.title);
  }
  await upsert(ctx, doc, parsed);
}
