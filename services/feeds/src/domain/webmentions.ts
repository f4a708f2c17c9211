// A user's webmentions feed: verified mentions whose target is on one of their sites (the
// webmention service resolves the owner), newest received first. Deleted mentions are tombstones.
import type { FeedsContext } from './context.js';
import { feed, V1_1, webmentionItem } from './feed-json.js';
import { revisionTime } from './revisions.js';
import { profileOf, userByUsernameOr404 } from './users.js';
import { validatorOf, type FeedView } from './views.js';

export const WEBMENTIONS_LIMIT = 50;

export async function webmentionsView(ctx: FeedsContext, username: string): Promise<FeedView> {
  const user = await userByUsernameOr404(ctx, username);
  const rev = await ctx.store.newestWebmentionRev(user._id);
  return {
    validator: validatorOf(['webmentions', user._id, user.username, rev, ctx.profiles.rev]),
    changedAtMs: Math.max(revisionTime(rev), revisionTime(ctx.profiles.rev)),
    async build() {
      const [mentions, profile] = await Promise.all([
        ctx.store.webmentionsOf(user._id, WEBMENTIONS_LIMIT),
        profileOf(ctx, user),
      ]);
      return feed(V1_1, `${user.username} webmentions`, mentions.map(webmentionItem), {
        home: profile.url,
        feed: `${ctx.config.PUBLIC_URL}/feeds/${encodeURIComponent(user.username)}/webmentions.json`,
      });
    },
  };
}
