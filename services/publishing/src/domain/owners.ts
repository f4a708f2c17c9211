// Site owners' public profiles, kept from identity's announcements (user.created, user.updated): the
// sites' h-cards show their photo, note and profile links (docs/api/publishing.md, "h-cards"). A user
// announced before publishing kept profiles is asked of identity once, when a page first needs them.
import { identity, type PublicUser } from '@murmur/contracts';
import type { SiteDoc, UserDoc } from '../store.js';
import type { BusHeaders, PublishingContext } from './context.js';

/**
 * The revision of a profile announcement: its time, with `updated` after `created` in the same
 * millisecond. Identity's answer to a question counts as revision 0, older than any announcement.
 */
export function profileRevision(occurredAt: string, kind: 'created' | 'updated'): number {
  const ms = Date.parse(occurredAt);
  return (Number.isFinite(ms) ? ms : 0) * 4 + (kind === 'created' ? 0 : 2);
}

const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

function userDoc(user: PublicUser): UserDoc {
  return {
    _id: user.id,
    username: user.username,
    name: user.name || user.fullName || user.username,
    photo: isHttpUrl(user.avatar) ? user.avatar : '',
    note: user.bio,
    // Identity checks them; pages link only what is plainly a web address.
    links: (user.links ?? []).filter(isHttpUrl),
  };
}

/** Keeps the profile an announcement carries, unless a newer one is kept already. */
export async function rememberOwner(
  ctx: PublishingContext,
  user: PublicUser,
  revision: number,
): Promise<void> {
  await ctx.store.applyUser(userDoc(user), revision);
}

/** After identity did not answer for a user (or did not know them), pages do not ask again for this long. */
const ASK_AGAIN_AFTER_MS = 60_000;
/** Users asked of identity without an answer, and when: per service instance, a few at most. */
const unanswered = new WeakMap<PublishingContext, Map<number, number>>();

/**
 * The profile of a site's owner: the kept copy, else identity's answer (kept as revision 0). Null when
 * identity does not know the user or does not answer: the page is then drawn without a photo, note or
 * links rather than not at all, and for a minute pages do not wait for identity again.
 */
export async function ownerProfile(
  ctx: PublishingContext,
  site: SiteDoc,
  headers: BusHeaders = {},
): Promise<UserDoc | null> {
  const kept = await ctx.store.userById(site.userId);
  if (kept) return kept;
  const now = ctx.clock.now().getTime();
  let asked = unanswered.get(ctx);
  if (!asked) unanswered.set(ctx, (asked = new Map()));
  const last = asked.get(site.userId);
  if (last !== undefined && now - last < ASK_AGAIN_AFTER_MS) return null;
  try {
    const { user } = await ctx.bus.request(
      identity.usersGet,
      { id: site.userId },
      { headers, timeoutMs: 2000 },
    );
    if (user) {
      const doc = userDoc(user);
      await ctx.store.applyUser(doc, 0);
      asked.delete(site.userId);
      return doc;
    }
  } catch (err) {
    ctx.logger.warn({ err, userId: site.userId }, 'owner profile unavailable; page drawn without it');
  }
  if (asked.size >= 1000) asked.clear();
  asked.set(site.userId, now);
  return null;
}
