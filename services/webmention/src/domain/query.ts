// GET /webmention (docs/api/webmention.md, "Reading"): the verified mentions of a target and of its
// http/https twin, in conversation order (published ascending) — the 500 newest, or one page of
// `per-page` from `page` 0 as webmention.io offers it. The ETag comes from the target's revision, so
// a conditional GET that matches reads no mention.
import { createHash } from 'node:crypto';
import { badRequest } from '@murmur/core';
import { lastValue as lastOf } from '@murmur/http';
import type { WebmentionContext } from './context.js';
import { FORMATS, jf2Feed, jsonFeed, mf2Document, type Format } from './mention-json.js';
import { checkHttpUrl, schemelessKey, withoutFragment } from './urls.js';

export const MAX_MENTIONS = 500;

/** The last of a repeated name, as text; a JSON array or object is no value of any parameter here. */
function lastValue(raw: unknown, name: string): string | undefined {
  const value = lastOf(raw);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') throw badRequest(`${name} must be a string`, name);
  return String(value);
}

function intParam(name: string, raw: unknown, min: number): number | undefined {
  const text = lastValue(raw, name);
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw badRequest(`${name} must be an integer of at least ${min}`, name);
  }
  return Number(text);
}

export interface MentionQuery {
  target: string;
  targetKey: string;
  format: Format;
  perPage: number | undefined;
  page: number;
}

export function parseQuery(params: Record<string, unknown>): MentionQuery {
  const raw = lastValue(params.target, 'target')?.trim();
  if (raw === undefined || raw === '') throw badRequest('target is required', 'target');
  const checked = checkHttpUrl('target', raw);
  if (!checked.ok) throw badRequest(checked.reason, 'target');
  const formatText = lastValue(params.format, 'format')?.trim().toLowerCase() || 'jsonfeed';
  if (!(FORMATS as readonly string[]).includes(formatText)) {
    throw badRequest('format must be one of jsonfeed, jf2, microformats, mf2', 'format');
  }
  const perPage = intParam('per-page', params['per-page'], 1);
  const page = intParam('page', params.page, 0) ?? 0;
  const target = withoutFragment(checked.url);
  return {
    target,
    targetKey: schemelessKey(target),
    format: formatText === 'mf2' ? 'microformats' : (formatText as Format),
    perPage: perPage === undefined ? undefined : Math.min(perPage, MAX_MENTIONS),
    page,
  };
}

/** The strong validator of a query's answer: the target's revision and everything the body depends on. */
export async function etagOf(ctx: WebmentionContext, q: MentionQuery): Promise<string> {
  const rev = await ctx.store.targetRev(q.targetKey);
  const shape = createHash('sha256')
    .update(JSON.stringify([ctx.config.PUBLIC_URL, q.target, q.format, q.perPage ?? null, q.page]))
    .digest('base64url')
    .slice(0, 16);
  return `"${rev}-${shape}"`;
}

function feedUrl(ctx: WebmentionContext, q: MentionQuery, page?: number): string {
  const params = new URLSearchParams({ target: q.target, format: 'jsonfeed' });
  if (q.perPage !== undefined) params.set('per-page', String(q.perPage));
  if (page !== undefined) params.set('page', String(page));
  return `${ctx.config.PUBLIC_URL}/webmention?${params.toString()}`;
}

export async function mentionsOf(ctx: WebmentionContext, q: MentionQuery): Promise<object> {
  const mentions = await ctx.store.visibleMentionsOf(
    q.targetKey,
    q.perPage === undefined ? { newest: MAX_MENTIONS } : { skip: q.page * q.perPage, limit: q.perPage + 1 },
  );
  let next: string | undefined;
  if (q.perPage !== undefined && mentions.length > q.perPage) {
    mentions.length = q.perPage;
    next = feedUrl(ctx, q, q.page + 1);
  }
  if (q.format === 'jf2') return jf2Feed(mentions);
  if (q.format === 'microformats') return mf2Document(mentions);
  return jsonFeed(q.target, feedUrl(ctx, q, q.perPage === undefined ? undefined : q.page), mentions, next);
}
