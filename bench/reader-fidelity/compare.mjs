#!/usr/bin/env node
// How faithfully the reader reads feeds, measured against Python feedparser (issue 18's closing
// criterion; bench/README.md "Reader fidelity"). Every feed of a corpus goes through feedparser
// (feedparser_dump.py, python3-feedparser) and through the reader's own parse path as a poll runs it
// (services/reader/dist: parseFetched, then entryFieldsOf — what jobs/refresh.ts stores), and the
// feed title and each entry's title, link, date, text and author are compared after normalisation.
// Run after a build, from the repository root:
//   node bench/reader-fidelity/compare.mjs [--corpus=DIR ...] [--no-fixtures] [--python=python3]
//                                          [--show=40] [--json=out.json] [--min=97]
//                                          [--reader-dist=services/reader/dist]
// The reader's own fixture corpus (services/reader/test/corpus.ts) is always included unless
// --no-fixtures; --corpus adds every .xml/.json/.rss/.atom/.rdf file under DIR (e.g. feedparser's test
// suite: `--corpus=/tmp/feedparser-corpus/tests`, see bench/README.md for how to get it). A feed file
// may carry HTTP headers in comment lines `Header: Name: value`, as feedparser's suite writes them.
//
// Exit status: 2 when python3-feedparser is missing or the reader is not built; 1 when any reader
// content keeps script-capable markup, when the reader refuses a feed feedparser reads (entity
// declarations aside), or when an agreement target (--min, default 97 %) is missed; else 0.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadReaderCorpus } from '../lib/reader-corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
};
const options = (name) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const flag = (name) => args.includes(`--${name}`);

const SHOW = Number(option('show', '40'));
const MIN = Number(option('min', '97'));
const CRITERION_FIELDS = ['title', 'link', 'date', 'text'];
const FIELDS = ['feedTitle', ...CRITERION_FIELDS, 'author'];

// ---------------------------------------------------------------------------------------------------
// Python feedparser: found or a clear error.
const dumpScript = join(here, 'feedparser_dump.py');
function findPython() {
  const candidates = [option('python', null), 'python3', '/usr/bin/python3', 'python'].filter(Boolean);
  for (const python of candidates) {
    const r = spawnSync(python, [dumpScript, '--check'], { encoding: 'utf8' });
    if (r.status === 0) return { python, version: r.stdout.trim() };
  }
  return null;
}
const python = findPython();
if (python === null) {
  console.error(
    'reader-fidelity: Python feedparser is missing (tried --python, python3, /usr/bin/python3, python).\n' +
      'Install it with: apt-get update && apt-get install -y python3-feedparser',
  );
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------
// The reader as built.
// --reader-dist: another build of the reader (e.g. main's) to measure a before/after on one corpus.
const readerDist = resolve(option('reader-dist', join(root, 'services', 'reader', 'dist')));
if (!existsSync(join(readerDist, 'feeds', 'parse.js'))) {
  console.error(
    `reader-fidelity: ${readerDist} is not built; run node node_modules/typescript/bin/tsc -b first`,
  );
  process.exit(2);
}
const { parseFetched } = await import(pathToFileURL(join(readerDist, 'feeds', 'parse.js')).href);
const { entryFieldsOf } = await import(pathToFileURL(join(readerDist, 'feeds', 'entries.js')).href);
const readerRequire = createRequire(join(root, 'services', 'reader', 'package.json'));
const { Parser } = readerRequire('htmlparser2');

// ---------------------------------------------------------------------------------------------------
// The corpus: our fixture cases (bytes + Content-Type, generated ones included) and feed files.
const FEED_FILE = /\.(xml|json|rss|atom|rdf)$/i;
function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (FEED_FILE.test(entry.name) && statSync(path).size > 0) out.push(path);
  }
  return out.sort();
}

/** `Header: Name: value` comment lines (feedparser's suite); Content-Type then defaults to text/xml. */
function headersOf(bytes) {
  const text = bytes.toString('latin1');
  const headers = {};
  for (const m of text.matchAll(/^Header:\s+([^:\r\n]+):(.*)$/gm))
    headers[m[1].trim().toLowerCase()] = m[2].trim();
  if (Object.keys(headers).length > 0 && !('content-type' in headers)) headers['content-type'] = 'text/xml';
  return headers;
}

const work = mkdtempSync(join(tmpdir(), 'murmur-fidelity-'));
const feeds = [];
if (!flag('no-fixtures')) {
  const seen = new Set();
  const cases = await loadReaderCorpus();
  cases.forEach((c) => {
    const body = c.body();
    const id = createHash('sha256').update(c.contentType).update('\0').update(body).digest('hex');
    if (seen.has(id)) return; // several cases read the same document
    seen.add(id);
    const path = join(work, `fixture-${feeds.length}`);
    writeFileSync(path, body);
    feeds.push({ corpus: 'fixtures', name: c.name, path, headers: { 'content-type': c.contentType } });
  });
}
for (const dir of options('corpus')) {
  const base = resolve(dir);
  for (const path of filesUnder(base)) {
    feeds.push({ corpus: base, name: relative(base, path), path, headers: headersOf(readFileSync(path)) });
  }
}
feeds.forEach((f, i) => {
  f.url = `http://127.0.0.1:8097/${f.corpus === 'fixtures' ? `fixtures/${i}` : f.name.replaceAll('\\', '/')}`;
});

// ---------------------------------------------------------------------------------------------------
// Both parsers.
const dumped = spawnSync(python.python, [dumpScript], {
  input: JSON.stringify(feeds.map((f) => ({ path: f.path, url: f.url, headers: f.headers }))),
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
if (dumped.status !== 0) {
  console.error(`reader-fidelity: feedparser_dump.py failed (${dumped.status}): ${dumped.stderr}`);
  process.exit(2);
}
const fpByPath = new Map(
  dumped.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .map((r) => [r.path, r]),
);

async function readerView(feed) {
  const body = readFileSync(feed.path);
  try {
    const fetched = await parseFetched(body, feed.headers['content-type'], feed.url);
    if (fetched.kind !== 'feed') return { refused: `not a feed (${fetched.kind})` };
    // Per item, so a pairing by position survives the reader dropping a repeated key.
    const entries = fetched.feed.items.map((item) => entryFieldsOf([item], feed.url)[0]);
    return { title: fetched.feed.title, entries };
  } catch (err) {
    return { refused: err instanceof Error ? err.message : String(err) };
  }
}

// ---------------------------------------------------------------------------------------------------
// Normalisation.
const BLOCK = new Set(
  'p div br li ul ol blockquote pre h1 h2 h3 h4 h5 h6 tr td th figure figcaption hr dd dt table section article header footer'.split(
    ' ',
  ),
);
const SKIP = new Set(['script', 'style']);
/** libs/fetch/src/sanitize/index.ts DROPPED_WITH_CONTENT. */
const DROPPED_WITH_CONTENT = new Set(
  'script style iframe object embed noscript template svg math form textarea select button option'.split(' '),
);
/** Visible text of HTML: entities decoded, script/style dropped, blocks as spaces, whitespace collapsed. */
function htmlText(html, skip = SKIP) {
  const parts = [];
  let skipping = 0;
  const p = new Parser(
    {
      onopentag(name) {
        if (skip.has(name)) skipping++;
        if (BLOCK.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (skip.has(name)) skipping = Math.max(0, skipping - 1);
        if (BLOCK.has(name)) parts.push(' ');
      },
      ontext(t) {
        if (skipping === 0) parts.push(t);
      },
    },
    { decodeEntities: true },
  );
  p.write(html);
  p.end();
  return collapse(parts.join(''));
}
const collapse = (s) => (typeof s === 'string' ? s.normalize('NFC').replace(/\s+/g, ' ').trim() : '');

/** Whether `text` is some of `names` (at least one, in their order) joined with ", ". */
function joinOfSome(text, names, from = 0) {
  for (let i = from; i < names.length; i++) {
    if (text === names[i]) return true;
    if (text.startsWith(`${names[i]}, `) && joinOfSome(text.slice(names[i].length + 2), names, i + 1))
      return true;
  }
  return false;
}
const isHtml = (type) => /html/i.test(type ?? '');
const fpText = (value, type) =>
  typeof value !== 'string' ? '' : isHtml(type) ? htmlText(value) : collapse(value);
/** The reader truncates titles at 1000 characters with '...'. */
const sameTitle = (a, b) =>
  a === b || (a.endsWith('...') && a.length <= 1000 && b.startsWith(a.slice(0, -3)));

function resolvedUrl(value, base) {
  if (typeof value !== 'string' || value.trim() === '') return '';
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return value.trim();
  }
}
function instant(value) {
  if (value === null || value === undefined || value === '') return null;
  const ms = typeof value === 'number' ? value / 1000 : Date.parse(value);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

// ---------------------------------------------------------------------------------------------------
// Script-capable markup in the reader's stored content (the rule of test-e2e/support/fuzz.ts).
const DANGEROUS = new Set(
  'script iframe frame frameset object embed applet svg math base meta link style form input button textarea select template noscript xml'.split(
    ' ',
  ),
);
const URL_ATTRS = new Set(['href', 'src', 'poster', 'cite', 'action', 'background', 'xlink:href', 'data']);
function unsafeUrl(raw) {
  const url = raw
    .replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (whole, ref) => {
      if (ref[0] !== '#')
        return { colon: ':', tab: '\t', newline: '\n', amp: '&' }[ref.toLowerCase()] ?? whole;
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
    })
    .replace(/[\t\n\r]/g, '')
    // eslint-disable-next-line no-control-regex -- what URL parsing ignores is the point
    .replace(/^[\u0000-\u0020]+/, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || ['http', 'https', 'mailto'].includes(scheme) ? null : `a ${scheme}: URL`;
}
export function scriptCapable(html) {
  if (/<\s*script/i.test(html)) return '<script';
  for (const m of html.matchAll(/<\/?([^\s/>]*)([^>]*)>?/g)) {
    const name = m[1].toLowerCase();
    if (DANGEROUS.has(name)) return `a <${name}> element`;
    for (const a of m[2].matchAll(/([^\s"'=<>`/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const attr = a[1].toLowerCase();
      if (attr.startsWith('on')) return `an ${attr}= handler`;
      if (attr === 'style' || attr === 'srcdoc' || attr === 'formaction') return `a ${attr}= attribute`;
      if (URL_ATTRS.has(attr)) {
        const why = unsafeUrl((a[2] ?? '').replace(/^["']|["']$/g, ''));
        if (why) return why;
      }
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Documented differences (docs/api/reader.md "Parsing", bench/README.md "Reader fidelity"): where the
// reader differs from feedparser on purpose. Each returns a reason, or null.
const DIFFERENCES = [
  // Only http(s) links are stored: a javascript:, data: or mailto: entry link is not a web page.
  (field, fp) =>
    field === 'link' && fp !== '' && !/^https?:/i.test(fp) ? 'non-http(s) link not stored' : null,
  // RFC 4287 §4.2.1: an Atom entry without authors has its source's, else its feed's; feedparser
  // leaves the entry's author empty.
  (field, fp, ours, feed) =>
    field === 'author' && fp === '' && feed.fpVersion?.startsWith('atom')
      ? "an Atom entry without authors has its source's or feed's (RFC 4287 §4.2.1)"
      : null,
  // Content-Location is not a base URI (RFC 9110 §8.7 dropped RFC 2616's rule); the request URL is.
  (field, fp, ours, feed) =>
    field === 'link' && feed.headers['content-location'] ? 'Content-Location is not a base URI' : null,
];
/**
 * Single cases where feedparser is the one that is wrong, or where two readings are both defensible,
 * each checked by hand: [feed (fixture case name or path inside --corpus), field, reason]. Everything
 * not listed here or matched by a rule above counts as a disagreement.
 */
const KNOWN = [
  // The reader's own fixtures pin issue 18's rules; feedparser 6.0.10 reads these differently.
  [
    'undeclared Big5 is detected',
    '*',
    'feedparser (chardet 5) guesses windows-1252 for short undeclared Big5; jschardet finds Big5 (issue 18)',
  ],
  [
    'date: dcterms issued',
    'date',
    'RFC 822 without a zone is UTC and `2020/1/10 14:33:00` is 10 January (issue 18); feedparser reads none / 1 November',
  ],
  [
    'a comment with markup before the RSS root',
    'author',
    'feedparser 6.0.10 cuts `ann@comment.example (Ann)` into "ple (Ann"',
  ],
  ['date: dcterms issued', 'author', 'feedparser 6.0.10 cuts `pat@dates.example (Pat)` into "ple (Pat"'],
  [
    'RSS author by precedence: Creator then show',
    'author',
    'feedparser 6.0.10 cuts `john@precedence.example (John Siracusa)` into "ple (John Siracusa"',
  ],
  // feedparser's test suite.
  [
    'wellformed/atom/entry_link_no_href_link_priority.xml',
    'link',
    "feedparser takes an href-less rel=enclosure link's text as the entry link; the reader takes the alternate one (RFC 4287 §4.2.7.2)",
  ],
  [
    'wellformed/atom10/entry_link_no_href_link_priority.xml',
    'link',
    "feedparser takes an href-less rel=enclosure link's text as the entry link; the reader takes the alternate one (RFC 4287 §4.2.7.2)",
  ],
  [
    'wellformed/atom/entry_link_rel_enclosure_no_href.xml',
    'link',
    "feedparser takes an href-less rel=enclosure link's text as the entry link; the reader takes the alternate one (RFC 4287 §4.2.7.2)",
  ],
  [
    'wellformed/atom10/entry_link_rel_enclosure_no_href.xml',
    'link',
    "feedparser takes an href-less rel=enclosure link's text as the entry link; the reader takes the alternate one (RFC 4287 §4.2.7.2)",
  ],
  [
    'wellformed/atom/entry_created_multiple_values.xml',
    'date',
    'two <created> in one entry (invalid Atom): feedparser keeps the last, the reader the first',
  ],
  [
    'wellformed/atom/entry_updated_multiple_values.xml',
    'date',
    'two <updated> in one entry (invalid Atom): feedparser keeps the last, the reader the first',
  ],
  [
    'entities/lang.xml',
    'feedTitle',
    "&lang; is U+27E8 in HTML today (WHATWG named references); feedparser uses HTML 4's U+2329",
  ],
  [
    'entities/rang.xml',
    'feedTitle',
    "&rang; is U+27E9 in HTML today (WHATWG named references); feedparser uses HTML 4's U+232A",
  ],
  [
    'wellformed/rss/item_category_image.xml',
    'title',
    "feedparser takes the title of an <image> nested in a <category> as the entry's title",
  ],
];
const documented = (field, fp, ours, feed) => {
  for (const rule of DIFFERENCES) {
    const why = rule(field, fp, ours, feed);
    if (why) return why;
  }
  const known = KNOWN.find(([name, f]) => name === feed.name && (f === '*' || f === field));
  return known ? known[2] : null;
};

// ---------------------------------------------------------------------------------------------------
// Compare.
const tally = Object.fromEntries(FIELDS.map((f) => [f, { agree: 0, documented: 0, disagree: 0 }]));
const disagreements = [];
const documentedList = [];
const refusals = { deliberate: [], wrong: [] };
const unsafe = [];
const fpFailed = [];
let entryCountDiffers = 0;
const readerOnly = [];
let comparedFeeds = 0;

function record(feed, field, entry, fp, ours, same, explained = null) {
  if (fp === '' && ours === '') return;
  const t = tally[field];
  if (same) return void t.agree++;
  const why = explained ?? documented(field, fp, ours, feed);
  const row = {
    feed: `${feed.corpus === 'fixtures' ? 'fixtures' : ''}${feed.corpus === 'fixtures' ? ': ' : ''}${feed.name}`,
    field,
    entry,
    feedparser: fp,
    reader: ours,
  };
  if (why) {
    t.documented++;
    documentedList.push({ ...row, why });
  } else {
    t.disagree++;
    disagreements.push(row);
  }
}

for (const feed of feeds) {
  const fp = fpByPath.get(feed.path);
  const ours = await readerView(feed);
  for (const e of ours.entries ?? []) {
    const why = e.content ? scriptCapable(e.content) : null;
    if (why) unsafe.push({ feed: feed.name, why, content: e.content.slice(0, 200) });
  }
  if (!fp?.ok) {
    fpFailed.push({ feed: feed.name, error: fp?.error ?? 'no output' });
    continue;
  }
  const fpReads = fp.version !== '' || fp.entries.length > 0;
  if (ours.refused !== undefined) {
    if (fpReads) {
      // Entity declarations (docs/security.md) and cut-off documents (issue 18's bad-input rule).
      const deliberate = /internal subset or entity declarations|is never closed/.test(ours.refused);
      refusals[deliberate ? 'deliberate' : 'wrong'].push({
        feed: feed.name,
        reader: ours.refused,
        feedparser: fp.version || `${fp.entries.length} entries`,
      });
    }
    continue;
  }
  // A feed feedparser does not read (JSON Feed in feedparser 6.0, a mislabelled encoding it gives up
  // on) has nothing to agree with: counted, not compared.
  if (!fpReads) {
    readerOnly.push(feed.name);
    continue;
  }
  comparedFeeds++;
  feed.fpVersion = fp.version;
  record(
    feed,
    'feedTitle',
    null,
    fpText(fp.feed.title, fp.feed.title_type),
    collapse(ours.title),
    sameTitle(collapse(ours.title), fpText(fp.feed.title, fp.feed.title_type)),
  );
  if (fp.entries.length !== ours.entries.length) entryCountDiffers++;
  const n = Math.max(fp.entries.length, ours.entries.length);
  for (let i = 0; i < n; i++) {
    const a = fp.entries[i] ?? {};
    const b = ours.entries[i] ?? {};
    const fpTitle = fpText(a.title, a.title_type);
    const ourTitle = collapse(b.title);
    record(feed, 'title', i, fpTitle, ourTitle, sameTitle(ourTitle, fpTitle));
    const fpLink = resolvedUrl(a.link, feed.url);
    const ourLink = resolvedUrl(b.url, feed.url);
    // feedparser makes any id a link when there is none (guidislink), resolving a relative one against
    // the document; the reader takes an id as the link only when the feed writes it as an absolute
    // http(s) URL (it would have been taken otherwise).
    const idAsLink =
      a.guidislink && fpLink !== '' && ourLink === ''
        ? 'an id the feed does not write as an absolute http(s) URL is not a link'
        : null;
    record(feed, 'link', i, fpLink, ourLink, fpLink === ourLink, idAsLink);
    const fpDate = instant(a.date);
    const ourDate = instant(b.published);
    record(
      feed,
      'date',
      i,
      a.date ?? '',
      b.published ? new Date(b.published / 1000).toISOString() : '',
      fpDate === ourDate,
    );
    const fpBody = fpText(a.text, a.text_type);
    const ourBody = b.content ? htmlText(b.content) : '';
    // The platform sanitiser drops these elements with everything inside them (feedparser keeps the
    // text of some: an <iframe>'s fallback, a <script> in odd places): the same text without them agrees.
    const sanitised =
      fpBody !== ourBody &&
      isHtml(a.text_type) &&
      [a.text, a.text_unsanitised].some(
        (t) => typeof t === 'string' && htmlText(t, DROPPED_WITH_CONTENT) === ourBody,
      )
        ? 'the sanitiser drops script, style, iframe, object, embed, svg, math, form controls with their content'
        : null;
    record(feed, 'text', i, fpBody, ourBody, fpBody === ourBody, sanitised);
    const fpAuthors = (a.authors ?? []).map(collapse).filter((x) => x !== '');
    const ourAuthor = collapse(b.author);
    const fpAuthor = fpAuthors.join(', ');
    // feedparser lists every author element of every vocabulary (and calls the last one `author`);
    // the reader takes one vocabulary by precedence (docs/api/reader.md "Parsing"): agreement is
    // the reader naming some of feedparser's authors, in its order, and nobody else.
    record(
      feed,
      'author',
      i,
      fpAuthor,
      ourAuthor,
      fpAuthor === ourAuthor || joinOfSome(ourAuthor, fpAuthors),
    );
  }
}
rmSync(work, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------------
// Report.
const pct = (a, b) => (b === 0 ? 100 : (100 * a) / b);
const fmt = (x) => `${x.toFixed(1)} %`;
const rows = FIELDS.map((f) => {
  const t = tally[f];
  const counted = t.agree + t.disagree;
  return { field: f, ...t, agreement: pct(t.agree, counted), raw: pct(t.agree, counted + t.documented) };
});
const criterion = rows.filter((r) => CRITERION_FIELDS.includes(r.field));
const sum = (rs, k) => rs.reduce((s, r) => s + r[k], 0);
const overall = pct(sum(criterion, 'agree'), sum(criterion, 'agree') + sum(criterion, 'disagree'));
const overallRaw = pct(
  sum(criterion, 'agree'),
  sum(criterion, 'agree') + sum(criterion, 'disagree') + sum(criterion, 'documented'),
);

const load = readFileSync('/proc/loadavg', 'utf8').trim();
const summary = {
  feedparser: python.version,
  corpora: ['fixtures', ...options('corpus')].filter((c) => c !== 'fixtures' || !flag('no-fixtures')),
  feeds: feeds.length,
  compared: comparedFeeds,
  readerOnly: readerOnly.length,
  feedparserFailed: fpFailed.length,
  entryCountDiffers,
  fields: rows,
  overall,
  overallRaw,
  refusedWhatFeedparserReads: refusals.wrong.length,
  refusedDeliberately: refusals.deliberate.length,
  scriptCapable: unsafe.length,
  load,
};

if (option('json', null)) {
  writeFileSync(
    option('json'),
    JSON.stringify(
      { summary, disagreements, documented: documentedList, refusals, unsafe, fpFailed },
      null,
      2,
    ),
  );
}

console.log(`reader fidelity vs Python feedparser ${python.version} (${python.python}); loadavg ${load}`);
console.log(`reader: ${relative(process.cwd(), readerDist) || '.'}`);
console.log(`corpus: ${summary.corpora.join(', ')} — ${feeds.length} feeds, ${comparedFeeds} read by both`);
console.log('');
console.log('field       agree  documented  disagree  agreement  (raw, documented counted as disagreement)');
for (const r of rows) {
  console.log(
    `${r.field.padEnd(10)} ${String(r.agree).padStart(6)} ${String(r.documented).padStart(11)} ${String(r.disagree).padStart(9)}  ${fmt(r.agreement).padStart(9)}  (${fmt(r.raw)})${CRITERION_FIELDS.includes(r.field) ? '' : '  [not in the criterion]'}`,
  );
}
console.log(`overall (titles, links, dates, texts): ${fmt(overall)} (raw ${fmt(overallRaw)})`);
console.log(`entries counted differently: ${entryCountDiffers} feeds`);
console.log(
  `feeds only the reader reads (not compared): ${readerOnly.length}${readerOnly.length ? ` — ${readerOnly.slice(0, 8).join(', ')}${readerOnly.length > 8 ? ', …' : ''}` : ''}`,
);
console.log(
  `feeds feedparser reads that the reader refuses: ${refusals.wrong.length} (plus ${refusals.deliberate.length} refused deliberately: entity declarations / DOCTYPE internal subset, root never closed)`,
);
for (const r of refusals.wrong.slice(0, SHOW)) console.log(`  refused ${r.feed}: ${r.reader}`);
console.log(`reader contents with script-capable markup: ${unsafe.length}`);
for (const u of unsafe.slice(0, SHOW)) console.log(`  ${u.feed}: ${u.why} in ${JSON.stringify(u.content)}`);
if (fpFailed.length > 0) console.log(`feedparser crashed on ${fpFailed.length} feeds (not compared)`);
const byWhy = new Map();
for (const d of documentedList)
  byWhy.set(`${d.field}: ${d.why}`, (byWhy.get(`${d.field}: ${d.why}`) ?? 0) + 1);
if (byWhy.size > 0) {
  console.log('documented differences (count, field: reason):');
  for (const [k, v] of byWhy) console.log(`  ${String(v).padStart(3)}  ${k}`);
}
console.log(
  `\ndisagreements (${disagreements.length}${disagreements.length > SHOW ? `, first ${SHOW}; --show=N or --json=FILE for all` : ''}):`,
);
const clip = (s) => JSON.stringify(typeof s === 'string' && s.length > 120 ? `${s.slice(0, 117)}...` : s);
for (const d of disagreements.slice(0, SHOW)) {
  console.log(
    `  ${d.feed} [${d.field}${d.entry === null ? '' : ` #${d.entry}`}]\n    feedparser ${clip(d.feedparser)}\n    reader     ${clip(d.reader)}`,
  );
}

const missed = criterion.filter((r) => r.agreement < MIN);
const ok = unsafe.length === 0 && refusals.wrong.length === 0 && missed.length === 0;
console.log(
  `\n${ok ? 'criterion met' : 'criterion NOT met'}: ≥ ${MIN} % per field on titles, links, dates, texts${missed.length ? ` (missed: ${missed.map((r) => r.field).join(', ')})` : ''}; refusals ${refusals.wrong.length}; script-capable ${unsafe.length}`,
);
process.exit(ok ? 0 : 1);
