// Property-based fuzzing of request parameter parsing (docs/security.md, "What the harness covers"):
// any query string or form body either parses into a safe record or is refused with a 4xx AppError,
// well-formed input parses exactly as a plain reference model says, and time stays linear in size.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AppError } from '@murmur/core';
import { FORBIDDEN_KEYS, mergeParams, parseUrlEncoded, type ParamRecord } from '../../src/params.js';
import {
  fuzzParams,
  LINEAR_RATIO_BOUND,
  linearity,
  nesting,
  runOf,
  type Shape,
} from '../../../../test-e2e/support/fuzz.js';

/** Runs `fn`; returns its result, or null when it refused with a 4xx AppError. Anything else fails. */
function parsedOrRefused<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBeGreaterThanOrEqual(400);
    expect((err as AppError).status).toBeLessThan(500);
    return null;
  }
}

/** What every parsed record must look like, whatever went in. */
function expectSafeRecord(record: ParamRecord): void {
  expect(Object.getPrototypeOf(record)).toBeNull();
  for (const key of Object.keys(record)) {
    expect(FORBIDDEN_KEYS.has(key)).toBe(false);
    const value = record[key];
    if (Array.isArray(value)) for (const v of value) expect(typeof v).toBe('string');
    else expect(typeof value).toBe('string');
  }
  // No prototype anywhere was touched.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

// --- the reference model ------------------------------------------------------------------------

type Suffix = { kind: 'plain' } | { kind: 'append' } | { kind: 'index'; index: number };
interface Pair {
  base: string;
  suffix: Suffix;
  value: string;
}

const rawName = (p: Pair) =>
  p.suffix.kind === 'plain'
    ? p.base
    : p.suffix.kind === 'append'
      ? `${p.base}[]`
      : `${p.base}[${p.suffix.index}]`;

/**
 * The documented rules, written as plainly as possible: a name given once (without brackets) is a
 * string; repeated names and `name[]` give arrays in order; `name[N]` values follow, ordered by N;
 * `__proto__`, `constructor` and `prototype` are dropped.
 */
function model(pairs: readonly Pair[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const bases = [...new Set(pairs.map((p) => p.base))].filter((b) => !FORBIDDEN_KEYS.has(b));
  for (const base of bases) {
    const mine = pairs.filter((p) => p.base === base);
    const inOrder = mine.filter((p) => p.suffix.kind !== 'index').map((p) => p.value);
    const byIndex = mine
      .filter((p) => p.suffix.kind === 'index')
      .map((p, order) => ({ index: (p.suffix as { index: number }).index, order, value: p.value }))
      .sort((a, b) => a.index - b.index || a.order - b.order)
      .map((p) => p.value);
    const values = [...inOrder, ...byIndex];
    const onlyPlainOnce = mine.length === 1 && mine[0]!.suffix.kind === 'plain';
    out[base] = onlyPlainOnce ? values[0] : values;
  }
  return out;
}

const pairArb: fc.Arbitrary<Pair> = fc.record({
  // A small alphabet, so names repeat; the forbidden names now and then.
  base: fc.oneof(
    { weight: 8, arbitrary: fc.stringMatching(/^[a-c_][a-c0-9_]{0,2}$/) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) },
  ),
  suffix: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Suffix>({ kind: 'plain' }) },
    { weight: 2, arbitrary: fc.constant<Suffix>({ kind: 'append' }) },
    { weight: 2, arbitrary: fc.nat({ max: 999_999 }).map((index): Suffix => ({ kind: 'index', index })) },
  ),
  value: fc.string({ unit: 'grapheme', maxLength: 30 }),
});

/** A base name that itself ends like a bracket suffix would be parsed differently; the model excludes it. */
const unambiguous = (p: Pair) => !/\[\d*\]$/.test(p.base) && !/[[\]]/.test(p.base);

const encode = (pairs: readonly Pair[]) =>
  pairs.map((p) => `${encodeURIComponent(rawName(p))}=${encodeURIComponent(p.value)}`).join('&');

// --- hostile text -------------------------------------------------------------------------------

const hostilePiece = fc.oneof(
  fc.constantFrom(
    '&', '=', '+', '%', '%ff', '%fe%ff', '%00', '%0', '%zz', '%ED%A0%80', '%C0%AF', '[', ']', '[]', '[0]',
    '[999999]', '[1000000]', '[-1]', '__proto__', '__proto__[polluted]', 'constructor[prototype][polluted]',
    'prototype', 'a', 'a[]', 'a[1]', '\u0000', '\uD800', '\uFFFF', '?', '#', ';',
  ), // prettier-ignore
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const hostileText = fc.array(hostilePiece, { maxLength: 60 }).map((parts) => parts.join(''));

describe('parseUrlEncoded (fuzzed)', () => {
  it('any text parses into a null-prototype record of strings and string arrays, or is refused with a 4xx', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const record = parsedOrRefused(() => parseUrlEncoded(text));
        if (record !== null) expectSafeRecord(record);
      }),
      fuzzParams(),
    );
  });

  it('well-formed input parses exactly as the reference model says', () => {
    fc.assert(
      fc.property(fc.array(pairArb.filter(unambiguous), { maxLength: 40 }), (pairs) => {
        const record = parseUrlEncoded(encode(pairs));
        expectSafeRecord(record);
        expect({ ...record }).toEqual(model(pairs));
      }),
      fuzzParams(),
    );
  });

  it('`+` is a space and percent-encoding is decoded, as browsers encode forms', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (value) => {
        const form = new URLSearchParams({ v: value }).toString();
        expect(parseUrlEncoded(form).v).toBe(value);
      }),
      fuzzParams(),
    );
  });
});

describe('mergeParams (fuzzed)', () => {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.stringMatching(/^[a-d]{1,2}$/) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString') },
  );
  const value = fc.oneof(
    fc.string({ maxLength: 5 }),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  );
  // Object.fromEntries creates own properties, as JSON.parse does for `{"__proto__": …}`.
  const source = fc.array(fc.tuple(key, value), { maxLength: 12 }).map((e) => Object.fromEntries(e));

  it('a body value wins over the query; forbidden keys never survive; nothing is polluted', () => {
    fc.assert(
      fc.property(source, fc.option(source, { nil: undefined }), (query, body) => {
        const merged = parsedOrRefused(() => mergeParams(query, body));
        if (merged === null) return;
        expect(Object.getPrototypeOf(merged)).toBeNull();
        const expected: Record<string, unknown> = {};
        for (const [k, v] of [...Object.entries(query), ...Object.entries(body ?? {})])
          if (!FORBIDDEN_KEYS.has(k)) expected[k] = v;
        expect({ ...merged }).toEqual(expected);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      fuzzParams(),
    );
  });
});

// --- time stays linear in input size ------------------------------------------------------------

const distinctNames: Shape<string> = {
  name: 'distinct names k0=1&k1=1&…',
  make: (n) => Array.from({ length: n }, (_, i) => `k${i}=1`).join('&'),
};

const linearShapes: Shape<string>[] = [
  distinctNames,
  runOf('a[7]=1&'),
  runOf('&'),
  runOf('='),
  runOf('%'),
  runOf('%ff'),
  runOf('['),
  runOf('[0]'),
  runOf('a'),
  nesting('a[', ']=1'),
];

describe('parseUrlEncoded time stays linear in input size', () => {
  it.each(linearShapes.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const result = await linearity((text: string) => parseUrlEncoded(text), shape);
    expect(result).toEqual(expect.objectContaining({ shape: shape.name }));
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});

describe('known defects, now fixed (regression tests)', () => {
  // Defect: quadratic form parsing in libs/http/src/params.ts — every repeated name copies
  // the whole value list so far, so n repeats of one name cost n² (a 256 KiB body stalled a service). Fixed.
  it.each([
    ['repeated name a=1&a=1&…', runOf('a=1&')],
    ['repeated appended name a[]=1&…', runOf('a[]=1&')],
  ] as const)('%s', async (_name, shape) => {
    const result = await linearity((text: string) => parseUrlEncoded(text), shape);
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});
