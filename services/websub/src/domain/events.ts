// Which topics a post or webmention event changes (docs/adr/0023-websub-hub.md, "Which topics an event changes"):
// the feed.xml and feed.json of the post's site, the author's timeline, the timeline of every
// subscribed user who follows the author, the mentions feeds of the users it mentions, and the photos
// feed when it has photos. Only topics somebody subscribes to are looked at; each is read again and
// distributed only when its document changed.
import { feeds, identity, publishing } from '@murmur/contracts';
import type { WebsubContext } from './context.js';
import { refreshTopics } from './content.js';
import { ownTopicUrl, siteFeedTopics } from './topics.js';

export async function applyPostEvent(
  ctx: WebsubContext,
  _verb: 'published' | 'updated' | 'deleted',
  post: publishing.PublicPost,
): Promise<void> {
  const subscribed = new Set(await ctx.store.subscribedTopics(ctx.clock.now()));
  if (subscribed.size === 0) return;
  const changed = new Map<string, boolean>();
  const add = (topic: string) => {
    if (subscribed.has(topic)) changed.set(topic, true);
  };

  const { site } = await ctx.bus.request(publishing.siteGet, { siteId: post.siteId });
  for (const t of siteFeedTopics(site.url)) add(t);
  // A site on its own host is also served below PUBLIC_URL (/sites/{username}/).
  for (const t of siteFeedTopics(ownTopicUrl(ctx, `/sites/${site.username}/`))) add(t);

  add(ownTopicUrl(ctx, `/feeds/${site.username}.json`));
  for (const m of post.mentions) add(ownTopicUrl(ctx, `/feeds/${m.username}/mentions.json`));
  if (post.photos.length > 0) add(ownTopicUrl(ctx, '/feeds/photos.json'));

  // Timelines of followers: only of users somebody subscribed to the timeline of.
  const timeline = new RegExp(`^${escapeRegExp(ctx.config.PUBLIC_URL)}/feeds/([A-Za-z0-9_-]{1,64})\\.json$`);
  for (const topic of subscribed) {
    const m = timeline.exec(topic);
    if (!m || changed.has(topic) || m[1] === 'photos') continue;
    const { user } = await ctx.bus.request(identity.usersGet, { username: m[1]! });
    if (!user) continue;
    const { items } = await ctx.bus.request(feeds.followingList, { userId: user.id });
    if (items.some((i) => i.userId === post.userId)) changed.set(topic, true);
  }
  await refreshTopics(
    ctx,
    [...changed].map(([topic, expectChange]) => ({ topic, expectChange })),
  );
}

/**
 * A webmention verified or gone changes the webmentions feed of the user whose site it targets
 * (`/feeds/{username}/webmentions.json`), which feeds rebuilds from the same event.
 */
export async function applyMentionEvent(
  ctx: WebsubContext,
  mention: { targetUserId: number | null },
): Promise<void> {
  if (mention.targetUserId === null) return;
  const subscribed = new Set(await ctx.store.subscribedTopics(ctx.clock.now()));
  if (subscribed.size === 0) return;
  const { user } = await ctx.bus.request(identity.usersGet, { id: mention.targetUserId });
  if (!user) return;
  const topic = ownTopicUrl(ctx, `/feeds/${user.username}/webmentions.json`);
  if (subscribed.has(topic)) await refreshTopics(ctx, [{ topic, expectChange: true }]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
