// The JF2 timeline item a Microsub client receives (docs/api/microsub.md "Timeline items"), from a
// feeds timeline item. Written once, typed by the route's response schema.
import type { z } from 'zod';
import type { feeds } from '@murmur/contracts';
import type { entrySchema } from '../shapes.js';

export function entryJson(item: feeds.TimelineItem, isRead?: boolean): z.input<typeof entrySchema> {
  return {
    type: 'entry',
    _id: item.id,
    published: item.publishedAt,
    url: item.url,
    ...(item.title ? { name: item.title } : {}),
    content: { html: item.contentHtml, text: item.contentText },
    ...(item.photos.length > 0 ? { photo: item.photos } : {}),
    author: {
      type: 'card',
      name: item.author.name || item.author.username,
      url: item.author.url,
      photo: item.author.photo,
    },
    // A boost (jf2 `repost-of`, as Aperture writes it): the author is who boosted, the boosted post
    // and its own author are in `refs`.
    ...(item.repostOf
      ? {
          'repost-of': [item.repostOf.url],
          refs: {
            [item.repostOf.url]: {
              type: 'entry' as const,
              url: item.repostOf.url,
              author: {
                type: 'card' as const,
                name: item.repostOf.author.name || item.repostOf.author.username,
                url: item.repostOf.author.url,
                photo: item.repostOf.author.photo,
              },
            },
          },
        }
      : {}),
    ...(isRead === undefined ? {} : { _is_read: isRead }),
  };
}
