// The icons of a user's subscriptions (docs/api/reader.md "Icons"): one per site host, known ones only.
import type { ReaderContext } from './context.js';

export async function userIcons(
  ctx: ReaderContext,
  userId: number,
): Promise<{ host: string; url: string }[]> {
  const view = await ctx.views.get(userId);
  const hosts = [...new Set(view.subscriptions.map((s) => s.feed.siteHost))];
  const icons = await ctx.store.iconsOfHosts(hosts);
  const byHost = new Map(icons.map((i) => [i._id, i.url]));
  return hosts.flatMap((host) => {
    const url = byHost.get(host);
    return url ? [{ host, url }] : [];
  });
}
