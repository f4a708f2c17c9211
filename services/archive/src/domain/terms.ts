// Search terms (docs/api/archive.md "Search"): text is folded — Unicode NFKD, combining marks
// removed, lower-cased — and split on anything that is not a letter or a digit. Posts store their
// terms when imported; a query is split the same way, so `Café` finds `cafe`.

import { BoundedMemo } from '@murmur/core';

/** Longer terms are cut to this many characters, in posts and queries alike. */
export const MAX_TERM_LENGTH = 64;
/** A post keeps at most this many distinct terms (the first ones: title, then tags, then text). */
export const MAX_TERMS_PER_POST = 20_000;

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const WHITESPACE = /\s+/;

/** The reference's definition, applied to one piece of text. */
function foldWhole(text: string): string[] {
  const folded = text.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const out: string[] = [];
  for (const part of folded.split(SEPARATORS)) {
    if (part !== '') out.push(part.length > MAX_TERM_LENGTH ? part.slice(0, MAX_TERM_LENGTH) : part);
  }
  return out;
}

// Folding is per character (NFKD, marks, case — Greek final sigma included, which looks only within
// a word) and whitespace is a separator before and after folding, so the text can be folded one
// whitespace-separated word at a time; words repeat, so each is folded once and remembered.
const cache = new BoundedMemo<string, string[]>(50_000);

function foldWord(word: string): string[] {
  let terms = cache.get(word);
  if (terms === undefined) {
    terms = foldWhole(word);
    if (word.length <= MAX_TERM_LENGTH) cache.set(word, terms);
  }
  return terms;
}

/** The folded terms of `text`, in order, repeats kept. */
export function foldTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(WHITESPACE)) {
    if (word !== '') for (const term of foldWord(word)) out.push(term);
  }
  return out;
}

/** foldTerms without the word cache: the definition itself (tests compare the two). */
export function foldTermsDirectly(text: string): string[] {
  return foldWhole(text);
}

/** The distinct terms of a post's title, tags and text (the first MAX_TERMS_PER_POST of them). */
export function postTerms(title: string, tags: string[], text: string): string[] {
  const seen = new Set<string>();
  const add = (source: string): boolean => {
    for (const word of source.split(WHITESPACE)) {
      if (word === '') continue;
      for (const term of foldWord(word)) {
        seen.add(term);
        if (seen.size >= MAX_TERMS_PER_POST) return false;
      }
    }
    return true;
  };
  if (add(title) && tags.every(add)) add(text);
  return [...seen];
}
