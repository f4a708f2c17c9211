// Presenters: stored posts → JSON Feed 1.1 items and feeds (docs/api/archive.md "Feeds"). Member
// order and presence follow docs/api/conventions.md: `title`, `date_modified`, `tags` and `image`
// only when the post has them; `content_html` always.
import { formatOffsetTime } from '@murmur/core';
import type { PostDoc } from '../store/index.js';

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

export interface ArchiveItem {
  id: string;
  url?: string;
  title?: string;
  content_html: string;
  content_text: string;
  date_published: string;
  date_modified?: string;
  tags?: string[];
  image?: string;
}

export interface ArchiveFeed {
  version: string;
  title: string;
  home_page_url?: string;
  feed_url: string;
  next_url?: string;
  items: ArchiveItem[];
}

export function itemOf(post: PostDoc): ArchiveItem {
  return {
    id: post.itemId,
    ...(post.url ? { url: post.url } : {}),
    ...(post.title ? { title: post.title } : {}),
    content_html: post.contentHtml,
    content_text: post.contentText,
    date_published: formatOffsetTime(new Date(post.publishedMs)),
    ...(post.modifiedMs === undefined ? {} : { date_modified: formatOffsetTime(new Date(post.modifiedMs)) }),
    ...(post.tags.length > 0 ? { tags: post.tags } : {}),
    ...(post.image ? { image: post.image } : {}),
  };
}

export function feedOf(parts: {
  title: string;
  homePageUrl: string;
  feedUrl: string;
  nextUrl?: string | undefined;
  posts: PostDoc[];
}): ArchiveFeed {
  return {
    version: JSON_FEED_VERSION,
    title: parts.title,
    ...(parts.homePageUrl ? { home_page_url: parts.homePageUrl } : {}),
    feed_url: parts.feedUrl,
    ...(parts.nextUrl ? { next_url: parts.nextUrl } : {}),
    items: parts.posts.map(itemOf),
  };
}
