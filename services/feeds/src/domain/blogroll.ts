// The public directory: the sites of users an operator opted in, sorted by title (case-insensitive),
// each with the categories the operator gave.
import { notFound } from '@murmur/core';
import { escapeHtml } from '@murmur/http';
import type { FeedsContext } from './context.js';
import { feed, V1_1 } from './feed-json.js';
import { revisionTime } from './revisions.js';
import { userByUsernameOr404 } from './users.js';
import type { FeedView } from './views.js';

export async function blogrollView(ctx: FeedsContext): Promise<FeedView> {
  const entries = await ctx.store.blogrollEntries();
  const categoriesOf = new Map(entries.map((e) => [e._id, e.categories]));
  const [sites, users] = await Promise.all([
    ctx.store.sitesOf([...categoriesOf.keys()]),
    ctx.store.usersByIds([...categoriesOf.keys()]),
  ]);
  const usernameOf = new Map(users.map((u) => [u._id, u.username]));
  const listed = sites
    .filter((s) => usernameOf.has(s.userId))
    .sort((a, b) => {
      const byTitle = a.title.toLowerCase().localeCompare(b.title.toLowerCase());
      return byTitle !== 0 ? byTitle : a._id - b._id;
    });
  const changedAtMs = Math.max(
    await ctx.store.blogrollChangedAt(),
    ...listed.map((s) => revisionTime(s.rev)),
    ...users.map((u) => revisionTime(u.rev)),
  );
  return {
    changedAtMs,
    async build() {
      return feed(
        V1_1,
        'Blogroll',
        listed.map((site) => ({
          id: `site-${site._id}`,
          url: site.url,
          title: site.title,
          content_html: site.description ? `<p>${escapeHtml(site.description)}</p>` : '',
          content_text: site.description,
          _service: {
            username: usernameOf.get(site.userId) ?? '',
            categories: categoriesOf.get(site.userId) ?? [],
          },
        })),
        { home: `${ctx.config.PUBLIC_URL}/`, feed: `${ctx.config.PUBLIC_URL}/blogroll.org.json` },
      );
    },
  };
}

/** Categories: trimmed, non-empty, lower-case, distinct, at most 20 of at most 64 characters. */
export function cleanCategories(raw: string[]): string[] {
  const out: string[] = [];
  for (const c of raw) {
    const word = c.trim().toLowerCase();
    if (word !== '' && !out.includes(word)) out.push(word);
  }
  return out;
}

export async function addToBlogroll(
  ctx: FeedsContext,
  username: string,
  categories: string[],
): Promise<{ username: string; categories: string[] }> {
  const user = await userByUsernameOr404(ctx, username);
  const clean = cleanCategories(categories);
  await ctx.store.setBlogroll(user._id, clean, ctx.clock.now());
  return { username: user.username, categories: clean };
}

export async function removeFromBlogroll(ctx: FeedsContext, username: string): Promise<void> {
  const user = await userByUsernameOr404(ctx, username);
  if (!(await ctx.store.removeBlogroll(user._id, ctx.clock.now())))
    throw notFound('That user is not in the blogroll.');
}
