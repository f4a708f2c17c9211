// The three shapes of GET /webmention (docs/api/webmention.md, "Reading"): JSON Feed 1.1 titled
// "Conversation" (the default), JF2, and microformats2 JSON. Each mention is written in one place per
// format; dates in the offset form.
import { formatOffsetTime } from '@murmur/core';
import type { webmention } from '@murmur/contracts';
import type { MentionDoc } from '../store/index.js';

export const FORMATS = ['jsonfeed', 'jf2', 'microformats', 'mf2'] as const;
export type Format = (typeof FORMATS)[number];

const PROPERTY: Record<webmention.MentionType, string> = {
  reply: 'in-reply-to',
  like: 'like-of',
  repost: 'repost-of',
  bookmark: 'bookmark-of',
  mention: 'mention-of',
};

export function wmProperty(type: webmention.MentionType | undefined): string {
  return PROPERTY[type ?? 'mention'];
}

function authorOf(m: MentionDoc): webmention.MentionAuthor {
  return m.author ?? {};
}

export function jsonFeed(target: string, feedUrl: string, mentions: MentionDoc[], nextUrl?: string) {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Conversation',
    home_page_url: target,
    feed_url: feedUrl,
    ...(nextUrl ? { next_url: nextUrl } : {}),
    items: mentions.map((m) => {
      const a = authorOf(m);
      const author = {
        ...(a.name ? { name: a.name } : {}),
        ...(a.url ? { url: a.url } : {}),
        ...(a.photo ? { avatar: a.photo } : {}),
      };
      const hasAuthor = Object.keys(author).length > 0;
      return {
        id: String(m.wmId),
        url: m.url ?? m.source,
        ...(m.name ? { title: m.name } : {}),
        content_html: m.contentHtml ?? '',
        ...(m.contentText ? { content_text: m.contentText } : {}),
        date_published: formatOffsetTime(m.published!),
        ...(hasAuthor ? { authors: [author], author } : {}),
        _service: { type: m.type ?? 'mention' },
      };
    }),
  };
}

export function jf2Feed(mentions: MentionDoc[]) {
  return {
    type: 'feed',
    name: 'Conversation',
    children: mentions.map((m) => {
      const a = authorOf(m);
      const property = wmProperty(m.type);
      const content = {
        ...(m.contentHtml ? { html: m.contentHtml } : {}),
        ...(m.contentText ? { text: m.contentText } : {}),
      };
      return {
        type: 'entry',
        author: {
          type: 'card',
          ...(a.name ? { name: a.name } : {}),
          ...(a.url ? { url: a.url } : {}),
          ...(a.photo ? { photo: a.photo } : {}),
        },
        url: m.url ?? m.source,
        ...(m.name ? { name: m.name } : {}),
        published: formatOffsetTime(m.published!),
        ...(Object.keys(content).length > 0 ? { content } : {}),
        'wm-property': property,
        'wm-source': m.source,
        'wm-target': m.target,
        'wm-id': m.wmId,
        'wm-received': formatOffsetTime(m.receivedAt!),
        [property]: m.target,
      };
    }),
  };
}

export function mf2Document(mentions: MentionDoc[]) {
  return {
    items: mentions.map((m) => {
      const a = authorOf(m);
      const content =
        m.contentHtml || m.contentText
          ? [{ html: m.contentHtml ?? '', value: m.contentText ?? '' }]
          : undefined;
      const card = {
        type: ['h-card'],
        properties: {
          ...(a.name ? { name: [a.name] } : {}),
          ...(a.url ? { url: [a.url] } : {}),
          ...(a.photo ? { photo: [a.photo] } : {}),
        },
        value: a.name ?? a.url ?? '',
      };
      return {
        type: ['h-entry'],
        properties: {
          url: [m.url ?? m.source],
          ...(m.name ? { name: [m.name] } : {}),
          published: [formatOffsetTime(m.published!)],
          ...(content ? { content } : {}),
          author: [card],
          [wmProperty(m.type)]: [m.target],
        },
      };
    }),
    rels: {},
    'rel-urls': {},
  };
}
