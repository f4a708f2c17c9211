// How a post's Micropub properties show in its HTML (docs/adr/0022-micropub-onto-the-post-model.md): the
// post it replies to, likes, reposts or bookmarks as a line above the body, its photos, videos and audio
// below it, then where it was written and its copies elsewhere; each with its microformats class
// (`u-in-reply-to`, `u-like-of`, `u-photo`, `p-location`, `u-syndication` …). It is part of the post's
// HTML, so every page, feed and event shows it, and the webmention service sends its links their
// webmentions as it does for any link in a post. Every value is escaped here: nothing is taken as markup.
import { escapeHtml } from '@murmur/http';
import type { PostMf2 } from '../store.js';
import type { RenderedBody } from './content.js';

const CONTEXTS = [
  ['in-reply-to', 'In reply to', 'u-in-reply-to'],
  ['like-of', 'Liked', 'u-like-of'],
  ['repost-of', 'Reposted', 'u-repost-of'],
  ['bookmark-of', 'Bookmarked', 'u-bookmark-of'],
] as const;

const e = escapeHtml;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The first string of an mf2 property of a nested object. */
function first(item: Record<string, unknown>, name: string): string | undefined {
  const props = isRecord(item.properties) ? item.properties : {};
  const values = props[name];
  const v = Array.isArray(values) ? values[0] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** A place (a `geo:` URI, a name, or an h-card/h-adr/h-geo object) as a `p-location`/`p-checkin` h-card. */
function place(value: unknown, className: string): { html: string; text: string } | null {
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    return { html: `<data class="${className}" value="${e(value)}">${e(value)}</data>`, text: value };
  }
  if (!isRecord(value)) return null;
  const name = first(value, 'name') ?? first(value, 'locality') ?? '';
  const url = first(value, 'url');
  const lat = first(value, 'latitude');
  const lon = first(value, 'longitude');
  const label = name || (lat !== undefined && lon !== undefined ? `${lat}, ${lon}` : '');
  if (label === '') return null;
  const link = url && /^https?:\/\//i.test(url) ? `<a class="u-url" href="${e(url)}">` : '';
  const geo =
    lat !== undefined && lon !== undefined
      ? `<data class="p-latitude" value="${e(lat)}"></data><data class="p-longitude" value="${e(lon)}"></data>`
      : '';
  return {
    html: `<span class="${className} h-card">${link}<span class="p-name">${e(label)}</span>${link ? '</a>' : ''}${geo}</span>`,
    text: label,
  };
}

/** Whether the properties alone make a post (a like or a photo needs no text). */
export function hasMf2Substance(mf2: PostMf2 | undefined): boolean {
  if (!mf2) return false;
  return (
    CONTEXTS.some(([name]) => (mf2[name]?.length ?? 0) > 0) ||
    (mf2.photo?.length ?? 0) > 0 ||
    (mf2.video?.length ?? 0) > 0 ||
    (mf2.audio?.length ?? 0) > 0 ||
    (mf2.checkin?.length ?? 0) > 0
  );
}

/** The rendered body with the Micropub properties around it; the photos join the post's photo list. */
export function decorateBody<T extends RenderedBody>(rendered: T, mf2: PostMf2 | undefined): T {
  if (!mf2) return rendered;
  const before: string[] = [];
  const beforeText: string[] = [];
  for (const [name, label, className] of CONTEXTS) {
    for (const url of mf2[name] ?? []) {
      before.push(`<p>${label} <a class="${className}" href="${e(url)}">${e(url)}</a></p>`);
      beforeText.push(`${label} ${url}`);
    }
  }
  for (const checkin of mf2.checkin ?? []) {
    const shown = place(checkin, 'p-checkin');
    if (shown) {
      before.push(`<p>Checked in at ${shown.html}</p>`);
      beforeText.push(`Checked in at ${shown.text}`);
    }
  }
  const after: string[] = [];
  for (const photo of mf2.photo ?? [])
    after.push(`<p><img class="u-photo" src="${e(photo.value)}" alt="${e(photo.alt ?? '')}" /></p>`);
  for (const url of mf2.video ?? [])
    after.push(`<p><video class="u-video" src="${e(url)}" controls></video></p>`);
  for (const url of mf2.audio ?? [])
    after.push(`<p><audio class="u-audio" src="${e(url)}" controls></audio></p>`);
  for (const location of mf2.location ?? []) {
    const shown = place(location, 'p-location');
    if (shown) after.push(`<p>At ${shown.html}</p>`);
  }
  if ((mf2.syndication?.length ?? 0) > 0) {
    const links = (mf2.syndication ?? []).map(
      (url) => `<a class="u-syndication" href="${e(url)}">${e(url)}</a>`,
    );
    after.push(`<p>Also on ${links.join(', ')}</p>`);
  }
  if (before.length === 0 && after.length === 0) return rendered;
  return {
    ...rendered,
    html: [...before, rendered.html, ...after].filter((part) => part !== '').join('\n'),
    text: [...beforeText, rendered.text].filter((part) => part !== '').join('\n\n'),
    photos: [...(mf2.photo ?? []).map((p) => p.value), ...rendered.photos],
  };
}
