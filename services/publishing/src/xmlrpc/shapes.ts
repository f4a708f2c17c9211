// The structs methods return (docs/api/publishing.md "Returned structs"), members in documented order.
import type { CategoryDoc, PageDoc, PostDoc, SiteDoc } from '../store.js';
import type { PublishingContext } from '../domain/context.js';
import { pagePermalink } from '../domain/pages.js';
import { permalink } from '../domain/post-json.js';
import { slugOf } from '../domain/posts.js';
import { siteName, siteUrl } from '../domain/site-json.js';
import type { XmlRpcOut } from './values.js';

export function postStruct(ctx: PublishingContext, site: SiteDoc, post: PostDoc): XmlRpcOut {
  const link = post.status === 'draft' ? '' : permalink(ctx, site, post);
  return {
    postid: String(post._id),
    id: post._id,
    title: post.title,
    description: post.body,
    link,
    permaLink: link,
    permalink: link,
    categories: post.categories,
    mt_excerpt: post.summary ?? '',
    mt_text_more: post.more ?? '',
    mt_keywords: (post.tags ?? []).join(', '),
    wp_slug: slugOf(post),
    dateCreated: post.date,
    date_created: post.date,
    date_modified: post.modifiedAt,
    post_status: post.status,
    userid: String(post.userId),
    author: { name: siteName(site), username: site.username },
  };
}

export function categoryStruct(ctx: PublishingContext, site: SiteDoc, category: CategoryDoc): XmlRpcOut {
  const htmlUrl = `${siteUrl(ctx, site)}categories/${category.slug}/`;
  return {
    categoryId: String(category._id),
    categoryName: category.name,
    description: '',
    htmlUrl,
    rssUrl: `${htmlUrl}feed.xml`,
    id: category._id,
    name: category.name,
  };
}

export function pageStruct(ctx: PublishingContext, site: SiteDoc, page: PageDoc): XmlRpcOut {
  return {
    id: page._id,
    title: page.title,
    description: page.body,
    permalink: pagePermalink(ctx, site, page),
    is_navigation: page.isNavigation,
    is_template: false,
    date_created: page.date,
    date_modified: page.modifiedAt,
  };
}

export function blogStruct(ctx: PublishingContext, site: SiteDoc): XmlRpcOut {
  return {
    blogid: String(site._id),
    blogName: siteName(site),
    url: siteUrl(ctx, site),
    xmlrpc: `${ctx.config.PUBLIC_URL}/xmlrpc`,
    isAdmin: true,
  };
}

/** mt.getRecentPostTitles: the Movable Type fields, and WordPress's status and UTC date. */
export function postTitleStruct(post: PostDoc): XmlRpcOut {
  return {
    dateCreated: post.date,
    userid: String(post.userId),
    postid: String(post._id),
    title: post.title,
    post_status: post.status,
    date_created_gmt: post.date,
  };
}
