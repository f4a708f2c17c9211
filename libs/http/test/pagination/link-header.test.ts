import { describe, expect, it } from '@jest/globals';
import { lastPage, linkHeader } from '../../src/pagination/index.js';

const BASE = 'https://murmur.example';
const PATH = '/feeds/v2/entries.json';

/** How NetNewsWire reads the `Links` header: split on "," then on "; ". */
function readLikeNetNewsWire(value: string): Record<string, string> {
  const rels: Record<string, string> = {};
  for (const link of value.split(',')) {
    const [url, rel] = link.trim().split('; ');
    rels[rel!.replace(/^rel="(.*)"$/, '$1')] = url!.replace(/^<(.*)>$/, '$1');
  }
  return rels;
}

describe('linkHeader', () => {
  it('page 1 of 3: next and last only', () => {
    expect(linkHeader(BASE, PATH, 'per_page=2', { page: 1, perPage: 2, total: 5 })).toBe(
      `<${BASE}${PATH}?per_page=2&page=2>; rel="next", <${BASE}${PATH}?per_page=2&page=3>; rel="last"`,
    );
  });

  it('a middle page has all four in order first, prev, next, last', () => {
    const value = linkHeader(BASE, PATH, { per_page: '2', page: '2' }, { page: 2, perPage: 2, total: 5 })!;
    expect(value).toBe(
      [
        `<${BASE}${PATH}?per_page=2&page=1>; rel="first"`,
        `<${BASE}${PATH}?per_page=2&page=1>; rel="prev"`,
        `<${BASE}${PATH}?per_page=2&page=3>; rel="next"`,
        `<${BASE}${PATH}?per_page=2&page=3>; rel="last"`,
      ].join(', '),
    );
  });

  it('the last page has no next and no last', () => {
    expect(linkHeader(BASE, PATH, '', { page: 3, perPage: 2, total: 5 })).toBe(
      `<${BASE}${PATH}?page=1>; rel="first", <${BASE}${PATH}?page=2>; rel="prev"`,
    );
  });

  it('nothing when everything fits on one page', () => {
    expect(linkHeader(BASE, PATH, '', { page: 1, perPage: 100, total: 100 })).toBeUndefined();
    expect(linkHeader(BASE, PATH, '', { page: 1, perPage: 100, total: 0 })).toBeUndefined();
  });

  it('keeps every other parameter in place and replaces page', () => {
    const value = linkHeader(BASE, PATH, '?mode=extended&page=1&include_enclosure=true', {
      page: 1,
      perPage: 100,
      total: 250,
    })!;
    const rels = readLikeNetNewsWire(value);
    expect(rels.next).toBe(`${BASE}${PATH}?mode=extended&page=2&include_enclosure=true`);
    expect(new URL(rels.last!).searchParams.get('page')).toBe('3');
  });

  it('survives a NetNewsWire-style split: commas are %2C, values are encoded', () => {
    const value = linkHeader(
      BASE,
      PATH,
      { ids: '1,2,3', since: '2026-11-21T08:30:00.123456Z', q: 'a b&c', tag: ['x', 'y'] },
      { page: 1, perPage: 10, total: 30 },
    )!;
    const rels = readLikeNetNewsWire(value);
    expect(Object.keys(rels)).toEqual(['next', 'last']);
    const next = new URL(rels.next!);
    expect(rels.next).toContain('ids=1%2C2%2C3');
    expect(next.searchParams.get('ids')).toBe('1,2,3');
    expect(next.searchParams.get('since')).toBe('2026-11-21T08:30:00.123456Z');
    expect(next.searchParams.get('q')).toBe('a b&c');
    expect(next.searchParams.getAll('tag')).toEqual(['x', 'y']);
    expect(next.searchParams.get('page')).toBe('2');
  });

  it('URLs are absolute on the configured base, with or without a trailing slash or a path prefix', () => {
    const count = { page: 1, perPage: 1, total: 2 };
    expect(readLikeNetNewsWire(linkHeader(`${BASE}/`, PATH, '', count)!).next).toBe(`${BASE}${PATH}?page=2`);
    expect(readLikeNetNewsWire(linkHeader(`${BASE}/murmur`, PATH, '', count)!).next).toBe(
      `${BASE}/murmur${PATH}?page=2`,
    );
  });

  it('never carries CR or LF into the header', () => {
    const value = linkHeader(
      BASE,
      '/x\r\nSet-Cookie: a=1',
      { q: 'a\r\nb' },
      { page: 1, perPage: 1, total: 2 },
    )!;
    expect(value).not.toMatch(/[\r\n]/);
  });
});

describe('lastPage', () => {
  it('is at least 1', () => {
    expect(lastPage(0, 100)).toBe(1);
    expect(lastPage(100, 100)).toBe(1);
    expect(lastPage(101, 100)).toBe(2);
  });
});
