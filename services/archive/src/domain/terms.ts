// Search terms (docs/api/archive.md "Search"): text is folded — Unicode NFKD, combining marks
// removed, lower-cased — and split on anything that is not a letter or a digit. Posts store their
// terms when imported; a query is split the same way, so `Café` finds `cafe`.

/** Longer terms are cut to this many characters, in posts and queries alike. */
export const MAX_TERM_LENGTH = 64;
/** A post keeps at most this many distinct terms (the first ones: title, then tags, then text). */
export const MAX_TERMS_PER_POST = 20_000;

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The folded terms of `text`, in order, repeats kept. */
export function foldTerms(text: string): string[] {
  const folded = text.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const out: string[] = [];
  for (const part of folded.split(SEPARATORS)) {
    if (part !== '') out.push(part.length > MAX_TERM_LENGTH ? part.slice(0, MAX_TERM_LENGTH) : part);
  }
  return out;
}

/** The distinct terms of a post's title, tags and text. */
export function postTerms(title: string, tags: string[], text: string): string[] {
  const seen = new Set<string>();
  for (const source of [title, ...tags, text]) {
    for (const term of foldTerms(source)) {
      if (seen.size >= MAX_TERMS_PER_POST) return [...seen];
      seen.add(term);
    }
  }
  return [...seen];
}
