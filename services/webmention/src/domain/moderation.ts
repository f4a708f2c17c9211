// Moderation (docs/api/webmention.md, "Moderation"): a user lists the mentions of their own sites and
// removes one, or blocks a source host for their sites; the operator blocks a source host for every
// site. A removal or block takes shown mentions out of every view (with `…deleted` events); a removed
// mention is not shown again when its source is re-sent.
import { badRequest, formatOffsetTime, notFound } from '@murmur/core';
import type { MentionDoc } from '../store/index.js';
import type { WebmentionContext } from './context.js';
import { recordDeleted } from './events.js';

const HOST = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
export const MINE_LIMIT = 500;

export function checkHost(raw: string): string {
  const host = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!HOST.test(host)) throw badRequest('host must be a host name such as spam.example', 'host');
  return host;
}

async function hide(
  ctx: WebmentionContext,
  doc: MentionDoc,
  status: 'removed_by_owner' | 'blocked',
): Promise<void> {
  const now = ctx.clock.now();
  const rev = doc.rev + 1;
  const set: Partial<MentionDoc> = { visible: false, status, rev, updatedAt: now };
  if (status === 'removed_by_owner') set.removedByOwner = true;
  if (!(await ctx.store.updateMention(doc._id, doc.rev, set, ['contentHtml', 'contentText', 'fingerprint'])))
    return;
  if (doc.visible) {
    await ctx.store.bumpTarget(doc.targetKey);
    await recordDeleted(ctx, { ...doc, ...set } as MentionDoc);
  }
}

export async function mentionsOfUser(ctx: WebmentionContext, userId: number) {
  const docs = await ctx.store.mentionsOfUser(userId, MINE_LIMIT);
  return {
    items: docs.map((m) => ({
      id: m.wmId ?? null,
      source: m.source,
      target: m.target,
      status: m.status,
      visible: m.visible,
      ...(m.type ? { type: m.type } : {}),
      ...(m.url ? { url: m.url } : {}),
      ...(m.author ? { author: m.author } : {}),
      ...(m.published ? { published: formatOffsetTime(m.published) } : {}),
      ...(m.lastError ? { last_error: m.lastError } : {}),
      updated_at: formatOffsetTime(m.updatedAt),
    })),
  };
}

/** Removes a mention of the user's own site; another user's mention is not found (404). */
export async function removeMention(ctx: WebmentionContext, userId: number, wmId: number): Promise<void> {
  const doc = await ctx.store.mentionByWmId(wmId);
  if (!doc || doc.targetUserId !== userId) throw notFound('No such webmention.');
  await hide(ctx, doc, 'removed_by_owner');
}

export async function blockHost(
  ctx: WebmentionContext,
  hostText: string,
  userId: number | null,
): Promise<{ host: string }> {
  const host = checkHost(hostText);
  await ctx.store.block(host, userId, ctx.clock.now());
  for (const doc of await ctx.store.visibleFromHost(host, userId)) await hide(ctx, doc, 'blocked');
  return { host };
}

export async function unblockHost(
  ctx: WebmentionContext,
  hostText: string,
  userId: number | null,
): Promise<void> {
  const host = checkHost(hostText);
  if (!(await ctx.store.unblock(host, userId))) throw notFound('That host is not blocked.');
}

export async function blocksOf(ctx: WebmentionContext, userId: number | null) {
  const blocks = await ctx.store.blocksOf(userId);
  return { blocks: blocks.map((b) => ({ host: b.host, created_at: formatOffsetTime(b.createdAt) })) };
}
