// Slugs and the paths built from them (docs/api/publishing.md, "Permalinks"): ASCII-folded, lower case, runs of anything else
// become `-`, at most 60 characters; a clash gets `-2`, `-3`, ….
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  þ: 'th',
  Þ: 'th',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
};

export const MAX_SLUG_LENGTH = 60;

export function slugify(text: string): string {
  const folded = text
    .replace(/[ßæÆœŒøØđĐðþÞłŁı]/g, (c) => FOLDS[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return folded
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/** The title, or else the first five words of the text. */
export function slugSource(title: string, text: string): string {
  if (title.trim() !== '') return title;
  return text.trim().split(/\s+/).slice(0, 5).join(' ');
}

/** `base`, `base-2`, `base-3`, … (the suffix never pushes the slug past the limit). */
export function* slugCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    yield `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
  }
}

/** `yyyy/mm/dd/` of a date in UTC. */
export function datePath(date: Date): string {
  const y = String(date.getUTCFullYear()).padStart(4, '0');
  const m = String(date.getUTCMonth() + 1).padStart(2, '0');
  const d = String(date.getUTCDate()).padStart(2, '0');
  return `${y}/${m}/${d}/`;
}

/**
 * Page slugs share the site's URL space with its fixed paths; these would shadow (or be shadowed by) them,
 * so a page named like this gets a suffix.
 */
export function isReservedPageSlug(slug: string): boolean {
  return /^\d+$/.test(slug) || ['categories', 'feed', 'media', 'sites', 'xmlrpc', 'rsd'].includes(slug);
}
