// Presenters: feeds' documents as JSON Feed items. Version 1.1 items carry `authors` and a copy of
// the first as `author`; version 1 items carry `author` only (docs/api/feeds.md).
import { formatOffsetTime } from '@murmur/core';
import { escapeHtml } from '@murmur/http';
import type { FeedAuthor, FeedItem, JsonFeed } from '../shapes.js';
import type { BookmarkDoc, PostDoc, ReadLaterDoc, WebmentionDoc } from '../store/index.js';
import type { Profile } from './users.js';

export const V1_1 = 'https://jsonfeed.org/version/1.1';
export const V1 = 'https://jsonfeed.org/version/1';

/** An author object without empty members, or undefined when nothing is known. */
export function authorOf(fields: { name?: string; url?: string; avatar?: string }): FeedAuthor | undefined {
  const author: FeedAuthor = {};
  if (fields.name) author.name = fields.name;
  if (fields.url) author.url = fields.url;
  if (fields.avatar) author.avatar = fields.avatar;
  return Object.keys(author).length > 0 ? author : undefined;
}

function withAuthors(
  item: FeedItem,
  author: FeedAuthor | undefined,
  version: typeof V1 | typeof V1_1,
): FeedItem {
  if (!author) return item;
  return version === V1_1 ? { ...item, authors: [author], author } : { ...item, author };
}

export function profileAuthor(profile: Profile | undefined): FeedAuthor | undefined {
  if (!profile) return undefined;
  return authorOf({ name: profile.name || profile.username, url: profile.url, avatar: profile.avatar });
}

export function postItem(
  post: PostDoc,
  profile: Profile | undefined,
  extra: Record<string, unknown> = {},
): FeedItem {
  const item: FeedItem = {
    id: String(post._id),
    url: post.url,
    ...(post.title ? { title: post.title } : {}),
    content_html: post.contentHtml,
    content_text: post.contentText,
    ...(post.photos[0] ? { image: post.photos[0] } : {}),
    date_published: formatOffsetTime(post.publishedAt),
  };
  // A boost: the booster is the author; the boosted post's author is credited beside.
  const repost = post.repostOf as PostDoc['repostOf'];
  const repostOf = repost
    ? {
        repost_of: {
          url: repost.url,
          author: {
            ...authorOf({ name: repost.author.name, url: repost.author.url, avatar: repost.author.photo }),
            username: repost.author.username,
          },
        },
      }
    : {};
  return {
    ...withAuthors(item, profileAuthor(profile), V1_1),
    _service: { username: profile?.username ?? '', ...repostOf, ...extra },
  };
}

export function webmentionItem(m: WebmentionDoc): FeedItem {
  const published =
    m.published && !Number.isNaN(Date.parse(m.published)) ? new Date(Date.parse(m.published)) : m.received;
  const item: FeedItem = {
    id: String(m._id),
    url: m.source,
    content_html: m.contentHtml,
    ...(m.contentText ? { content_text: m.contentText } : {}),
    date_published: formatOffsetTime(published),
  };
  return {
    ...withAuthors(item, authorOf({ name: m.author.name, url: m.author.url, avatar: m.author.photo }), V1_1),
    _service: { type: m.type, target: m.target },
  };
}

export function linkParagraph(url: string, text: string): string {
  return `<p><a href="${escapeHtml(url)}">${escapeHtml(text || url)}</a></p>`;
}

export function bookmarkId(id: number): string {
  return `bm-${id}`;
}

export function readLaterId(id: number): string {
  return `rl-${id}`;
}

/** A bookmark in the private (version 1) feed or the bookmark API's 1.1 feeds. */
export function bookmarkItem(b: BookmarkDoc, version: typeof V1 | typeof V1_1): FeedItem {
  const item: FeedItem = {
    id: bookmarkId(b._id),
    url: b.url,
    ...(b.title ? { title: b.title } : {}),
    content_html: b.type === 'archived' && b.contentHtml ? b.contentHtml : linkParagraph(b.url, b.title),
    ...(b.summary ? { summary: b.summary } : {}),
    date_published: formatOffsetTime(b.createdAt),
    ...(b.audio ? { attachments: [{ url: b.audio.url, mime_type: b.audio.mimeType }] } : {}),
  };
  return { ...withAuthors(item, authorOf({ name: b.authorName }), version), _service: { type: b.type } };
}

export function readLaterItem(r: ReadLaterDoc): FeedItem {
  return {
    id: readLaterId(r._id),
    url: r.url,
    ...(r.title ? { title: r.title } : {}),
    content_html: r.contentHtml || linkParagraph(r.url, r.title),
    ...(r.excerpt ? { summary: r.excerpt } : {}),
    date_published: formatOffsetTime(r.savedAt),
  };
}

export function feed(
  version: typeof V1 | typeof V1_1,
  title: string,
  items: FeedItem[],
  links: { home?: string; feed?: string; next?: string } = {},
): JsonFeed {
  return {
    version,
    title,
    ...(links.home ? { home_page_url: links.home } : {}),
    ...(links.feed ? { feed_url: links.feed } : {}),
    ...(links.next ? { next_url: links.next } : {}),
    items,
  };
}
