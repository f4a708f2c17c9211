// The JSON Feed 1.1 shape of highlights (docs/api/reader.md "Highlights"), typed by the route's schema.
import type { z } from 'zod';
import { formatOffsetTime } from '@murmur/core';
import { escapeHtml } from '@murmur/http';
import type { highlightFeedSchema } from '../shapes.js';
import type { HighlightDoc } from '../store/index.js';

type HighlightFeedJson = z.input<typeof highlightFeedSchema>;
type HighlightItemJson = HighlightFeedJson['items'][number];

const JSON_FEED_1_1 = 'https://jsonfeed.org/version/1.1' as const;

export function highlightItemJson(h: HighlightDoc): HighlightItemJson {
  return {
    id: String(h._id),
    ...(h.entryUrl ? { url: h.entryUrl } : {}),
    ...(h.entryTitle ? { title: h.entryTitle } : {}),
    content_html: `<p>${escapeHtml(h.text)}</p>`,
    content_text: h.text,
    date_published: formatOffsetTime(h.createdAt),
    _service: { entry_id: h.entryId, selection_start: h.start, selection_end: h.end },
  };
}

export function highlightFeedJson(
  feedUrl: string,
  highlights: HighlightDoc[],
  nextUrl?: string,
): HighlightFeedJson {
  return {
    version: JSON_FEED_1_1,
    title: 'Highlights',
    feed_url: feedUrl,
    ...(nextUrl === undefined ? {} : { next_url: nextUrl }),
    items: highlights.map(highlightItemJson),
  };
}
