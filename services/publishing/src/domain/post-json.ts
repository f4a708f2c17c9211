// How a post is shown to other services: its permalink and its public copy (the post events' payload).
import type { publishing } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import type { PostDoc, SiteDoc } from '../store.js';
import type { PublishingContext } from './context.js';
import { siteUrl } from './site-json.js';

type PublicPost = publishing.PublicPost;

export function permalink(ctx: PublishingContext, site: SiteDoc, post: Pick<PostDoc, 'path'>): string {
  return post.path ? `${siteUrl(ctx, site)}${post.path}` : '';
}

export function publicPost(ctx: PublishingContext, site: SiteDoc, post: PostDoc): PublicPost {
  return {
    id: post._id,
    userId: post.userId,
    siteId: post.siteId,
    url: permalink(ctx, site, post),
    title: post.title,
    contentHtml: post.contentHtml,
    contentText: post.contentText,
    publishedAt: formatOffsetTime(post.date),
    photos: post.photos,
    mentions: post.mentions,
    categories: post.categories,
    revision: post.revision,
  };
}
