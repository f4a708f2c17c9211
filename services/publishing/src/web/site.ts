// Answers a path below a site's URL: home, feeds, RSD, post permalinks, category pages and user pages.
// Only published posts are ever shown; drafts and scheduled posts do not exist for the web.
import type { FastifyReply } from 'fastify';
import { advertisedHubUrl, hubLinkHeader, notFound } from '@murmur/core';
import type { PublishingContext } from '../domain/context.js';
import { categoryBySlug } from '../domain/categories.js';
import { ownerProfile } from '../domain/owners.js';
import { permalink } from '../domain/post-json.js';
import { siteName, siteUrl } from '../domain/site-json.js';
import type { SiteDoc } from '../store.js';
import { jsonFeed, rsdDocument, rssFeed } from './feeds.js';
import { SITE_PAGE_HEADERS } from './html.js';
import type { EntryView, SiteView } from './model.js';
import { deletedPostPage, entryPage, homePage, userPage } from './pages.js';

const FEED_ITEMS = 20;
const POST_PATH = /^(\d{4})\/(\d{2})\/(\d{2})\/([a-z0-9-]{1,80})\.html$/;
const CATEGORY_PATH = /^categories\/([a-z0-9-]{1,80})\/(feed\.xml)?$/;
const PAGE_PATH = /^([a-z0-9-]{1,80})\/$/;

async function siteView(ctx: PublishingContext, site: SiteDoc): Promise<SiteView> {
  const [categories, navigation, owner] = await Promise.all([
    ctx.store.allCategoriesOfSite(site._id),
    ctx.store.navigationPagesOfSite(site._id),
    ownerProfile(ctx, site),
  ]);
  return {
    site,
    url: siteUrl(ctx, site),
    name: siteName(site),
    xmlrpcUrl: `${ctx.config.PUBLIC_URL}/xmlrpc`,
    serverUrl: ctx.config.PUBLIC_URL,
    categories: new Map(categories.map((c) => [c.name, c])),
    navigation,
    owner: { photo: owner?.photo ?? '', note: owner?.note ?? '', links: owner?.links ?? [] },
  };
}

async function latest(ctx: PublishingContext, site: SiteDoc, category?: string): Promise<EntryView[]> {
  const posts = await ctx.store.latestPublishedPosts(site._id, FEED_ITEMS, category);
  return posts.map((post) => ({ post, url: permalink(ctx, site, post) }));
}

/**
 * A site page, with the webmention and Micropub endpoints also in a `Link` header (senders and Micropub
 * clients read either).
 */
function sendHtml(reply: FastifyReply, page: string, view: SiteView, status = 200): FastifyReply {
  return reply
    .code(status)
    .headers({
      ...SITE_PAGE_HEADERS,
      link: `<${view.serverUrl}/webmention>; rel="webmention", <${view.serverUrl}/micropub>; rel="micropub"`,
    })
    .send(page);
}

export async function serveSitePath(
  ctx: PublishingContext,
  site: SiteDoc,
  path: string,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const view = await siteView(ctx, site);
  const cache = { 'cache-control': 'public, max-age=60', 'x-content-type-options': 'nosniff' };
  if (path === '') return sendHtml(reply, homePage(view, await latest(ctx, site)), view);
  // The site's feeds name the WebSub hub in the document and in a Link header, with themselves as
  // rel="self" (docs/api/websub.md, "Discovery"); WEBSUB_HUB_URL empty advertises none.
  const hub = advertisedHubUrl(ctx.config);
  const hubLink = (self: string) => (hub ? { link: hubLinkHeader(hub, self) } : {});
  if (path === 'feed.json') {
    return reply
      .headers({
        ...cache,
        ...hubLink(`${view.url}feed.json`),
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
      })
      .send(JSON.stringify(jsonFeed(view, await latest(ctx, site), hub)));
  }
  if (path === 'feed.xml') {
    const feed = rssFeed(view, await latest(ctx, site), view.name, `${view.url}feed.xml`, view.url, hub);
    return reply
      .headers({
        ...cache,
        ...hubLink(`${view.url}feed.xml`),
        'content-type': 'application/rss+xml; charset=utf-8',
      })
      .send(feed);
  }
  if (path === 'rsd.xml') {
    return reply
      .headers({ ...cache, 'content-type': 'application/rsd+xml; charset=utf-8' })
      .send(rsdDocument(view));
  }
  const post = POST_PATH.exec(path);
  if (post) {
    const found = await ctx.store.publishedPostByPermalink(site._id, path);
    if (found)
      return sendHtml(reply, entryPage(view, { post: found, url: permalink(ctx, site, found) }), view);
    // A post that was public here and has been deleted: 410 Gone (the Webmention spec's delete flow).
    if (await ctx.store.deletedPostAt(site._id, path))
      return sendHtml(reply, deletedPostPage(view, `${view.url}${path}`), view, 410);
    throw notFound();
  }
  const category = CATEGORY_PATH.exec(path);
  if (category) {
    const doc = await categoryBySlug(ctx, site._id, category[1]!);
    if (!doc) throw notFound();
    const entries = await latest(ctx, site, doc.name);
    const pageUrl = `${view.url}categories/${doc.slug}/`;
    if (category[2]) {
      const feed = rssFeed(view, entries, `${view.name}: ${doc.name}`, `${pageUrl}feed.xml`, pageUrl);
      return reply.headers({ ...cache, 'content-type': 'application/rss+xml; charset=utf-8' }).send(feed);
    }
    return sendHtml(reply, homePage(view, entries, `${view.name}: ${doc.name}`, pageUrl), view);
  }
  const page = PAGE_PATH.exec(path);
  if (page) {
    const found = await ctx.store.pageBySlug(site._id, page[1]!);
    if (!found) throw notFound();
    return sendHtml(reply, userPage(view, found), view);
  }
  throw notFound();
}
