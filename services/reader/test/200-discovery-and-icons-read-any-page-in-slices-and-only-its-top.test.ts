// Feed discovery and icon lookup read a fetched page with the platform's sliced tag scan (docs/security.md,
// "Parsing fetched documents"; issue 37): 100,000 nested <div> (1.1 MB, which held the event loop
// 363–398 ms when parsed whole) are read while the loop keeps turning, and only the top of a page is
// read at all — DISCOVERY_SCAN_CHARS for feed links, ICON_SCAN_CHARS for icons.
import { describe, expect, it } from '@jest/globals';
import { DISCOVERY_SCAN_CHARS, pageLinks } from '../src/feeds/discover.js';
import { declaredIcons, ICON_SCAN_CHARS } from '../src/jobs/icons.js';

const PAGE_URL = 'https://site.example/blog/';
const HEAD =
  '<!doctype html><html><head><title>t</title>' +
  '<link rel="alternate" type="application/rss+xml" href="/feed.xml">' +
  '<link rel="icon" href="/favicon.png"></head><body>';
const deep = (inner: string) =>
  `${HEAD}${'<div>'.repeat(100_000)}${inner}${'</div>'.repeat(100_000)}</body></html>`;

/** Turns of the event loop while `work` runs: 0 when it holds the loop from start to end. */
async function turnsDuring<T>(work: () => T | Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe('feed discovery', () => {
  it('a page of 100,000 nested <div>: its feeds are found while the event loop keeps turning', async () => {
    const { result, turns } = await turnsDuring(() => pageLinks(deep('<a href="/atom.xml">x</a>'), PAGE_URL));
    expect(result.alternates).toEqual(['https://site.example/feed.xml']);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it(`reads the first ${DISCOVERY_SCAN_CHARS / 1024} KiB of a page: a feed link further down is not seen`, async () => {
    const filler = `<p>${'x'.repeat(DISCOVERY_SCAN_CHARS)}</p>`;
    const page = `${HEAD}<a href="/near.xml">n</a>${filler}<a href="/far.xml">f</a></body></html>`;
    expect((await pageLinks(page, PAGE_URL)).anchors).toEqual(['https://site.example/near.xml']);
  });
});

describe('icons', () => {
  it('a page of 100,000 nested <div>: its icon is found while the event loop keeps turning', async () => {
    const page = `<html><head><title>t</title></head><body>${'<div>'.repeat(100_000)}<link rel=icon href=/late.png></body></html>`;
    const { result, turns } = await turnsDuring(() => declaredIcons(page, PAGE_URL));
    expect(result).toEqual(['https://site.example/late.png']);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it(`reads the first ${ICON_SCAN_CHARS / 1024} KiB of a page: an icon declared further down is not seen`, async () => {
    const filler = `<p>${'x'.repeat(ICON_SCAN_CHARS)}</p>`;
    const page = `<html><head></head><body>${filler}<link rel="icon" href="/far.png"></body></html>`;
    expect(await declaredIcons(page, PAGE_URL)).toEqual([]);
    expect(await declaredIcons(`${HEAD}</head><body>${filler}`, PAGE_URL)).toEqual([
      'https://site.example/favicon.png',
    ]);
  });
});
