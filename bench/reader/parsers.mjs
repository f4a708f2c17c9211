#!/usr/bin/env node
// Which parser reads feeds most faithfully (docs/adr/0015-feed-parser-fidelity.md): the reader as
// built (feedparser over sax + the reader's own mapping), the reader before (another build, e.g. main's),
// feedsmith and @rowanmanning/feed-parser (both over fast-xml-parser) with the thin mapping any
// integrator writes, on the reader's fixture corpus (services/reader/test/corpus.ts) — title, link,
// author, date and text of each case — and on speed and hostile documents. Run after a build:
//   node bench/reader/parsers.mjs [--before-dist=/path/to/other/services/reader/dist] [--json]
// feedsmith and feed-parser get the text the reader decoded (encoding is decided around any parser);
// the reader builds get the bytes and the Content-Type, as a poll does.
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as feedsmith from 'feedsmith';
import rowan from '@rowanmanning/feed-parser';
import { flag, option, ratePerCpuSecond as rate } from '../lib/cli.mjs';
import { loadReaderCorpus } from '../lib/reader-corpus.mjs';
import { rssDocument } from './feeds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const readerDist = join(root, 'services', 'reader', 'dist');
const beforeDist = option('before-dist', null);
const DOC_URL = 'http://127.0.0.1:9/corpus/feed';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
/** Visible text of HTML, roughly: enough to compare texts across parsers. */
function text(html) {
  if (typeof html !== 'string') return '';
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(
      /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|figure|pre|hr|table|section|article)\b[^>]*>/gi,
      ' ',
    )
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
        : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/\s+/g, ' ')
    .trim();
}
const clean = (s) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() || null : null);
const abs = (href, base = DOC_URL) => {
  try {
    return href ? new URL(String(href).trim(), base).href : null;
  } catch {
    return null;
  }
};
const when = (d) => {
  const t = d instanceof Date ? d.getTime() : typeof d === 'string' ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? null : t;
};
const joined = (names) => {
  const list = [...new Set(names.map(clean).filter(Boolean))];
  return list.length ? list.join(', ') : null;
};

// --- parsers, each mapped to { title, url, author, published (ms), text } per item ---------------

async function readerParser(dist) {
  const { parseFetched } = await import(pathToFileURL(join(dist, 'feeds', 'parse.js')).href);
  return async (bytes, contentType) => {
    const out = await parseFetched(bytes, contentType, DOC_URL);
    if (out.kind !== 'feed') throw new Error('not a feed');
    return out.feed.items.map((i) => ({
      title: i.title,
      url: i.link,
      author: i.author,
      published: i.published ? i.published.getTime() : null,
      text: text(i.contentHtml),
      feedTitle: out.feed.title,
    }));
  };
}

/** feedsmith's own structure mapped the way its README suggests, text constructs by their type. */
function feedsmithItems(doc) {
  const { format, feed } = feedsmith.parseFeed(doc);
  const construct = (c) => (c == null ? null : typeof c === 'string' ? c : c.value);
  const constructText = (c) =>
    c == null
      ? null
      : typeof c === 'string'
        ? clean(text(c))
        : c.type === 'text' || !c.type
          ? clean(c.value)
          : clean(text(c.value));
  if (format === 'atom') {
    return (feed.entries ?? []).map((e) => ({
      title: constructText(e.title),
      url: abs((e.links ?? []).find((l) => !l.rel || l.rel === 'alternate')?.href),
      author: joined([...(e.authors ?? []), ...(e.source?.authors ?? [])].map((a) => a.name)),
      published: when(e.published ?? e.updated ?? e.dc?.dates?.[0]),
      text: text(construct(e.content) ?? construct(e.summary)),
      feedTitle: constructText(feed.title),
    }));
  }
  if (format === 'json') {
    return (feed.items ?? []).map((i) => ({
      title: clean(i.title),
      url: abs(i.url),
      author: joined([...(i.authors ?? []), ...(i.author ? [i.author] : [])].map((a) => a.name)),
      published: when(i.date_published ?? i.datePublished),
      text: text(i.content_html ?? i.contentHtml ?? i.content_text ?? i.contentText),
      feedTitle: clean(feed.title),
    }));
  }
  return (feed.items ?? []).map((i) => ({
    title: clean(text(i.title)),
    url: abs(i.link),
    author: joined([
      ...(i.authors ?? []),
      ...(i.dc?.creators ?? []),
      ...(i.dc?.creator ? [i.dc.creator] : []),
    ]),
    published: when(i.pubDate ?? i.dc?.dates?.[0] ?? i.dc?.date ?? i.dcterms?.issued ?? i.dcterms?.modified),
    text: text(i.content?.encoded ?? i.description ?? i.dc?.description),
    feedTitle: clean(text(feed.title)),
  }));
}

function rowanItems(doc) {
  const feed = rowan.parseFeed(doc);
  return feed.items.map((i) => ({
    title: clean(i.title),
    url: abs(i.url),
    author: joined((i.authors ?? []).map((a) => a.name)),
    published: when(i.published ?? i.updated),
    text: text(i.content ?? i.description),
    feedTitle: clean(feed.title),
  }));
}

async function decodedWith(decodeFeedBody, parse) {
  return async (bytes, contentType) => parse(decodeFeedBody(bytes, contentType).text);
}

// --- fidelity ---------------------------------------------------------------------------------------

function pickEntry(items, c) {
  const url = c.entry.url?.replaceAll('{origin}', 'http://127.0.0.1:9');
  if (url) {
    const byUrl = items.find((i) => i.url === url);
    if (byUrl) return byUrl;
  }
  if (c.pick) return items.find((i) => i.title === c.pick) ?? null;
  return items[0] ?? null;
}

function score(items, c) {
  const checks = [];
  const entry = items ? pickEntry(items, c) : null;
  const want = c.entry;
  const check = (field, ok) => checks.push({ field, ok: Boolean(entry) && ok });
  if ('title' in want || c.pick) check('title', entry?.title === ('title' in want ? want.title : c.pick));
  if ('url' in want) check('link', entry?.url === want.url?.replaceAll('{origin}', 'http://127.0.0.1:9'));
  if ('author' in want) check('author', entry?.author === want.author);
  if (want.published)
    check('date', entry?.published === Date.parse(want.published.replace(/(\.\d{3})\d{3}Z$/, '$1Z')));
  const expectedText = want.summary ?? (want.content == null ? null : text(want.content));
  if (expectedText) check('text', (entry?.text ?? '').includes(expectedText));
  if (c.feedTitle !== undefined) check('feed title', items?.[0]?.feedTitle === c.feedTitle);
  return checks;
}

export async function compareParsers({ log = console.error } = {}) {
  const corpus = await loadReaderCorpus();
  const { decodeFeedBody } = await import(pathToFileURL(join(readerDist, 'feeds', 'decode.js')).href);
  const parsers = {
    'reader (feedparser + mapping, this build)': await readerParser(readerDist),
    ...(beforeDist
      ? { 'reader before (feedparser, normalised fields)': await readerParser(resolve(beforeDist)) }
      : {}),
    'feedsmith 3 + thin mapping': await decodedWith(decodeFeedBody, feedsmithItems),
    '@rowanmanning/feed-parser 2 + thin mapping': await decodedWith(decodeFeedBody, rowanItems),
  };
  const results = {};
  for (const [name, parse] of Object.entries(parsers)) {
    const byField = {};
    const misses = [];
    for (const c of corpus) {
      let items = null;
      try {
        items = await parse(c.body(), c.contentType);
      } catch {
        items = null;
      }
      for (const { field, ok } of score(items, c)) {
        byField[field] ??= { ok: 0, of: 0 };
        byField[field].of++;
        if (ok) byField[field].ok++;
        else misses.push(`${c.name}: ${field}`);
      }
    }
    const ok = Object.values(byField).reduce((n, f) => n + f.ok, 0);
    const of = Object.values(byField).reduce((n, f) => n + f.of, 0);
    results[name] = { agreement: Math.round((1000 * ok) / of) / 10, ok, of, byField, misses };
    log(`${name}: ${ok}/${of} fields (${results[name].agreement} %)`);
    log(
      `  ${Object.entries(byField)
        .map(([f, v]) => `${f} ${v.ok}/${v.of}`)
        .join(', ')}`,
    );
    for (const m of misses) log(`  ✕ ${m}`);
  }
  return {
    corpusCases: corpus.length,
    results,
    speed: await speed(parsers, log),
    hostile: await hostile(parsers, log),
  };
}

// --- speed and hostile documents -------------------------------------------------------------------

async function speed(parsers, log) {
  const typical = Buffer.from(rssDocument(1, 30, 30));
  const large = Buffer.from(rssDocument(2, 1000, 1000));
  const type = 'application/rss+xml; charset=utf-8';
  const out = {};
  log('speed (parse only):');
  for (const [name, parse] of Object.entries(parsers)) {
    const feedsPerSecond = await rate(() => parse(typical, type));
    const mbPerSecond = ((await rate(() => parse(large, type))) * large.length) / 1e6;
    out[name] = {
      feedsPerSecond: Math.round(feedsPerSecond),
      mbPerSecond: Math.round(mbPerSecond * 10) / 10,
    };
    log(`  ${name}: ${out[name].feedsPerSecond} feeds/s (30 items), ${out[name].mbPerSecond} MB/s`);
  }
  return out;
}

async function hostile(parsers, log) {
  const laughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') +
    ']><rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title></item></channel></rss>';
  const docs = {
    '100,000 deep': `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep</title><item><title>x</title><x>${'<a>'.repeat(100_000)}deep${'</a>'.repeat(100_000)}</x></item></channel></rss>`,
    'billion laughs': laughs,
    truncated: rssDocument(4, 30, 30).slice(0, 20_000),
  };
  const out = {};
  log('hostile documents (time; outcome):');
  for (const [name, parse] of Object.entries(parsers)) {
    out[name] = {};
    for (const [doc, body] of Object.entries(docs)) {
      const started = performance.now();
      let outcome;
      try {
        const items = await parse(Buffer.from(body), 'application/xml');
        const longest = Math.max(0, ...items.map((i) => (i.title ?? '').length));
        outcome = `${items.length} items, longest title ${longest} chars`;
      } catch (err) {
        outcome = `refused (${String(err.message).slice(0, 60)})`;
      }
      out[name][doc] = { ms: Math.round(performance.now() - started), outcome };
      log(`  ${name} / ${doc}: ${out[name][doc].ms} ms; ${outcome}`);
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const result = await compareParsers();
  if (flag('json')) console.log(JSON.stringify(result));
}
