// `@username` in a post names a user when identity knows that username; unknown names stay plain text.
import { identity, type publishing } from '@murmur/contracts';
import type { BusHeaders, PublishingContext } from './context.js';
import { mentionCandidates } from './content.js';
import { siteUrl } from './site-json.js';

type Mention = publishing.Mention;

export interface ResolvedMentions {
  mentions: Mention[];
  /** Lower-case username → the URL a mention links to (the user's default site). */
  urls: Map<string, string>;
}

export async function resolveMentions(
  ctx: PublishingContext,
  body: string,
  headers: BusHeaders,
): Promise<ResolvedMentions> {
  const names = mentionCandidates(body);
  const found = await Promise.all(
    names.map((username) => ctx.bus.request(identity.usersGet, { username }, { headers })),
  );
  const mentions: Mention[] = [];
  const urls = new Map<string, string>();
  for (const { user } of found) {
    if (!user) continue;
    mentions.push({ userId: user.id, username: user.username });
    const site = await ctx.store.defaultSiteOf(user.id);
    urls.set(user.username.toLowerCase(), siteUrl(ctx, site ?? { host: null, username: user.username }));
  }
  return { mentions, urls };
}
