// Search terms are folded one whitespace-separated word at a time with a cache (domain/terms.ts); for
// any text that gives exactly the terms of the definition applied to the whole text (NFKD, marks
// removed, lower-cased, split on anything not a letter or digit).
import { expect, it } from '@jest/globals';
import fc from 'fast-check';
import { foldTerms, foldTermsDirectly, postTerms } from '../src/domain/terms.js';

const pieces = [
  'Café',
  'CAFÉ',
  'cafe\u0301',
  'Ｆｕｌｌ',
  'ﬁne',
  '½',
  '℡',
  'ΣΟΦΟΣ',
  'straße',
  'İstanbul',
  '\u00a0',
  '\t',
  ' ',
  '\n',
  '—',
  '-',
  '.',
  "l'été",
  'a1b2',
  '日本語',
  'x'.repeat(70),
];

it('gives the same terms as the definition, for any text', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string(), fc.string({ unit: 'grapheme' }))),
      (parts) => {
        const text = parts.join('');
        expect(foldTerms(text)).toEqual(foldTermsDirectly(text));
        expect(foldTerms(text)).toEqual(foldTerms(text));
      },
    ),
    { numRuns: 500 },
  );
});

it('folds case, accents and compatibility forms, and cuts long terms at 64 characters', () => {
  expect(foldTerms('Café  CAFE\u0301 naïve Ｆｕｌｌ ﬁne l’été')).toEqual([
    'cafe',
    'cafe',
    'naive',
    'full',
    'fine',
    'l',
    'ete',
  ]);
  expect(foldTerms('x'.repeat(70))).toEqual(['x'.repeat(64)]);
  expect(foldTerms('!?… —')).toEqual([]);
  expect(postTerms('Café Paris', ['Travel'], 'paris again, café')).toEqual([
    'cafe',
    'paris',
    'travel',
    'again',
  ]);
});
