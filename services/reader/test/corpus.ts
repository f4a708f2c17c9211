// The feed fidelity corpus (docs/api/reader.md "Parsing"): one small feed per parsing rule plus
// real-world-shaped samples under fixtures/feeds/, each with what a client must see of its first entry
// (or the entry `pick` names). Legacy-encoding samples are generated here with iconv-lite from UTF-8
// text, so the repository holds no mis-encoded files. `{origin}` in an expected URL is the feed server.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'feeds');

export function corpusFile(name: string): Buffer {
  return readFileSync(join(DIR, name));
}

export interface ExpectedEntry {
  title?: string | null;
  url?: string | null;
  author?: string | null;
  /** The API's timestamp; omitted when the entry has no date (arrival time is used). */
  published?: string;
  /** Exact sanitised content. */
  content?: string | null;
  /** Text the plain-text summary must contain. */
  summary?: string;
}

export interface CorpusCase {
  name: string;
  body: () => Buffer;
  contentType: string;
  feedTitle?: string;
  /** The entry with this title (default: the one with the expected URL, else the first listed). */
  pick?: string;
  entry: ExpectedEntry;
}

const file = (name: string) => () => corpusFile(name);

/** An RSS 2.0 document without an encoding declaration, its text in `encoding`. */
function legacyRss(encoding: string, text: string, declared?: string): () => Buffer {
  const declaration = declared ? `<?xml version="1.0" encoding="${declared}"?>` : '<?xml version="1.0"?>';
  const xml =
    `${declaration}\n<rss version="2.0"><channel><title>${text}</title><link>https://legacy.example/</link>` +
    `<item><title>${text}</title><link>https://legacy.example/${encoding.toLowerCase()}</link>` +
    `<description>${text} ${text}</description><pubDate>Mon, 09 Nov 2026 12:00:00 GMT</pubDate></item>` +
    '</channel></rss>';
  return () => iconv.encode(xml, encoding);
}

export const LEGACY_TEXT: Record<string, string> = {
  'EUC-JP': '日本語のフィードです。今日は晴れています。新しい記事を公開しました。',
  Shift_JIS: '日本語のフィードです。今日は晴れています。新しい記事を公開しました。',
  'EUC-KR': '한국어 피드입니다. 오늘은 날씨가 좋습니다. 새로운 글을 올렸습니다.',
  GB2312: '这是一个中文订阅源。今天天气很好。我们发布了一篇新文章。',
  Big5: '這是一個中文訂閱源。今天天氣很好。我們發布了一篇新文章。',
  'KOI8-R': 'Это русская лента новостей. Сегодня хорошая погода. Мы опубликовали новую статью.',
  'TIS-620': 'นี่คือฟีดภาษาไทย วันนี้อากาศดี เราได้เผยแพร่บทความใหม่',
  'windows-1255': 'זהו פיד בעברית. היום מזג האוויר נאה. פרסמנו מאמר חדש.',
};

const XML = 'application/xml';

export const CORPUS: CorpusCase[] = [
  // Root finding
  {
    name: 'a comment with markup before the RSS root',
    body: file('root-after-comment-with-markup.xml'),
    contentType: XML,
    feedTitle: 'Comment first',
    entry: {
      title: 'Found past the comment',
      url: 'https://comment.example/posts/1',
      author: 'Ann',
      published: '2026-11-10T08:00:00.000000Z',
      content: 'Root finding skips comments.',
    },
  },
  {
    name: 'a stylesheet PI, a DOCTYPE and a comment naming <feed> before the root',
    body: file('root-after-pi-and-doctype.xml'),
    contentType: 'text/xml',
    feedTitle: 'PI and DOCTYPE first',
    entry: { title: 'Found past the PI and DOCTYPE', url: 'https://pi.example/posts/1' },
  },
  {
    name: 'a comment with a link before the Atom root',
    body: file('atom-after-comment.xml'),
    contentType: 'application/atom+xml',
    feedTitle: 'Atom after a comment',
    entry: {
      title: 'Atom entry past the comment',
      url: 'https://atom-comment.example/1',
      author: 'Bo',
      published: '2026-11-10T09:00:00.000000Z',
      content: 'Still an Atom feed.',
    },
  },
  // Encodings
  ...Object.entries(LEGACY_TEXT).map(([encoding, text]) => ({
    name: `undeclared ${encoding} is detected`,
    body: legacyRss(encoding, text),
    contentType: XML,
    feedTitle: text,
    entry: { title: text, url: `https://legacy.example/${encoding.toLowerCase()}`, summary: text },
  })),
  {
    name: 'EUC-JP named in the XML declaration',
    body: legacyRss('EUC-JP', LEGACY_TEXT['EUC-JP']!, 'EUC-JP'),
    contentType: XML,
    entry: { title: LEGACY_TEXT['EUC-JP']! },
  },
  {
    name: 'the HTTP charset wins over the XML declaration (RFC 7303)',
    body: legacyRss('KOI8-R', LEGACY_TEXT['KOI8-R']!, 'windows-1251'),
    contentType: 'text/xml; charset="KOI8-R"',
    entry: { title: LEGACY_TEXT['KOI8-R']! },
  },
  {
    name: 'ISO-8859-1 in the XML declaration is windows-1252: 0x93 0x94 0x92 are quotes',
    body: legacyRss(
      'windows-1252',
      '\u201cSmart\u201d quotes aren\u2019t C1 controls \u2014 caf\u00e9',
      'ISO-8859-1',
    ),
    contentType: XML,
    entry: { title: '\u201cSmart\u201d quotes aren\u2019t C1 controls \u2014 caf\u00e9' },
  },
  {
    name: 'text/xml; charset=iso-8859-1 is windows-1252 too',
    body: legacyRss('windows-1252', '\u2018Single\u2019 \u2026 na\u00efve'),
    contentType: 'text/xml; charset=iso-8859-1',
    entry: { title: '\u2018Single\u2019 \u2026 na\u00efve' },
  },
  {
    name: 'US-ASCII label with 8-bit bytes is windows-1252',
    body: legacyRss('windows-1252', 'Euro \u20ac and \u2122', 'US-ASCII'),
    contentType: XML,
    entry: { title: 'Euro \u20ac and \u2122' },
  },
  {
    name: 'text/xml without a charset and UTF-8 bytes is UTF-8, not US-ASCII',
    body: legacyRss('utf-8', 'Gr\u00fc\u00dfe aus K\u00f6ln \u2603'),
    contentType: 'text/xml',
    entry: { title: 'Gr\u00fc\u00dfe aus K\u00f6ln \u2603' },
  },
  {
    name: 'a UTF-16LE document with a BOM',
    body: () =>
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        iconv.encode(
          legacyRss('utf-8', '\u00c9t\u00e9 \u65e5\u672c', 'UTF-16')().toString('utf8'),
          'utf-16le',
        ),
      ]),
    contentType: XML,
    entry: { title: '\u00c9t\u00e9 \u65e5\u672c' },
  },
  {
    name: 'a UTF-8 BOM before a declaration that says otherwise',
    body: () =>
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        legacyRss('utf-8', 'B\u00f6m first', 'windows-1252')(),
      ]),
    contentType: XML,
    entry: { title: 'B\u00f6m first' },
  },
  {
    name: 'an HTTP charset nobody knows gives way to the XML declaration',
    body: legacyRss('KOI8-R', LEGACY_TEXT['KOI8-R']!, 'KOI8-R'),
    contentType: 'application/xml; charset=x-no-such-charset',
    entry: { title: LEGACY_TEXT['KOI8-R']! },
  },
  {
    name: 'a UTF-16 declaration on 8-bit bytes is ignored (the bytes are UTF-8)',
    body: legacyRss('utf-8', 'Na\u00efve \u201cUTF-16\u201d', 'UTF-16'),
    contentType: XML,
    entry: { title: 'Na\u00efve \u201cUTF-16\u201d' },
  },
  {
    name: 'a UTF-8 label on windows-1252 bytes falls back to detection',
    body: legacyRss(
      'windows-1252',
      'Les \u00e9l\u00e8ves \u00e9tudient \u00e0 l\u2019\u00e9cole fran\u00e7aise, o\u00f9 le caf\u00e9 est d\u00e9licieux et tr\u00e8s appr\u00e9ci\u00e9.',
      'UTF-8',
    ),
    contentType: XML,
    entry: {
      title:
        'Les \u00e9l\u00e8ves \u00e9tudient \u00e0 l\u2019\u00e9cole fran\u00e7aise, o\u00f9 le caf\u00e9 est d\u00e9licieux et tr\u00e8s appr\u00e9ci\u00e9.',
    },
  },
  // Text constructs and content sources
  {
    name: 'Atom type="xhtml" title, summary and content; escaped text inside decoded once',
    body: file('atom-xhtml.xml'),
    contentType: 'application/atom+xml',
    feedTitle: 'Notes on markup',
    entry: {
      title: 'the <blink> tag',
      url: 'https://xhtml.example/blink',
      author: 'Tim',
      published: '2026-11-11T10:00:00.000000Z',
      summary: 'Never use the <blink> tag, said the W3C. Really.',
    },
  },
  {
    name: 'Atom xhtml with a prefixed XHTML namespace',
    body: file('atom-xhtml.xml'),
    contentType: 'application/atom+xml',
    pick: 'A prefixed & escaped title',
    entry: {
      url: 'https://xhtml.example/prefixed',
      content: '<div><p>Prefixed <em>XHTML</em> content.</p></div>',
    },
  },
  {
    name: 'Atom type="text" is never tag-stripped',
    body: file('atom-text-types.xml'),
    contentType: 'application/atom+xml',
    feedTitle: 'Text & types',
    pick: 'Use <b> for bold & <i> for italics',
    entry: { url: 'https://text.example/1', content: 'A &lt;b&gt; tag in text is text.' },
  },
  {
    name: 'Atom type="html" decoded exactly once',
    body: file('atom-text-types.xml'),
    contentType: 'application/atom+xml',
    pick: 'the <blink> tag, escaped once more',
    entry: {
      summary: 'HTML & entities decoded once: <tag>',
      content:
        '<p>HTML &amp; entities <b>decoded</b> once: &lt;tag&gt;</p><img src="https://text.example/x.png" />',
    },
  },
  {
    name: 'Atom 0.3 mode="base64" title and content',
    body: file('atom03-base64.xml'),
    contentType: 'application/atom+xml',
    feedTitle: 'Atom 0.3 feed',
    pick: 'Base64 title \u2014 decoded',
    entry: {
      url: 'https://atom03.example/2026/11/base64',
      author: 'Mark',
      published: '2026-11-13T09:00:00.000000Z',
      content: '<p>Content in <b>base64</b>.</p>',
    },
  },
  {
    name: 'Atom 0.3 mode="escaped"',
    body: file('atom03-base64.xml'),
    contentType: 'application/atom+xml',
    pick: 'Escaped & HTML',
    entry: { published: '2026-11-12T10:00:00.000000Z', content: '<p>Escaped <em>content</em></p>' },
  },
  {
    name: 'RSS content:encoded before description',
    body: file('rss-content-sources.xml'),
    contentType: 'application/rss+xml',
    pick: 'Full content wins',
    entry: { content: '<p>The <strong>full</strong> article &amp; more.</p>' },
  },
  {
    name: 'RSS xhtml:body',
    body: file('rss-content-sources.xml'),
    contentType: 'application/rss+xml',
    pick: 'Inline XHTML body',
    entry: { content: '<p>Body with <em>emphasis</em> and a literal &lt;tag&gt;.</p>' },
  },
  {
    name: 'RSS dc:description',
    body: file('rss-content-sources.xml'),
    contentType: 'application/rss+xml',
    pick: 'Dublin Core description only',
    entry: { content: '<p>Described by <em>dc:description</em>.</p>' },
  },
  {
    name: 'JSON Feed "http://jsonfeed.org/version/1" with plain-text titles',
    body: file('json-feed-http-version.json'),
    contentType: 'application/json',
    feedTitle: 'Die R\u00fcckkehr von <i> und <b>',
    entry: {
      title: 'Die R\u00fcckkehr von <i> und <b> &amp; Co',
      url: 'https://wp-json.example/2026/11/ruckkehr/#more-12',
      author: 'J\u00f6rg',
      published: '2026-11-14T09:00:00.000000Z',
      content: '<p>\u00dcber <i>Tags</i>.</p>',
    },
  },
  {
    name: 'JSON Feed 1.1 authors all joined',
    body: file('json-feed-two-authors.json'),
    contentType: 'application/feed+json',
    entry: { title: 'Written together', author: 'Ada, Grace', published: '2026-11-15T08:00:00.000000Z' },
  },
  ...(
    [
      ['https://titles.example/plain', 'Use <b> for bold'],
      ['https://titles.example/html', 'AT&T news'],
      ['https://titles.example/entity', 'Caf\u00e9 open'],
      ['https://titles.example/maths', '1 < 2 && 3 > 2'],
    ] as const
  ).map(([url, title]) => ({
    name: `RSS title as text unless it looks like HTML: ${title}`,
    body: file('rss-titles.xml'),
    contentType: 'application/rss+xml',
    feedTitle: 'Titles: <plain> or HTML',
    entry: { url, title },
  })),
  // Dates, authors, links
  {
    name: 'RSS 1.0 dated by dc:date, two dc:creators',
    body: file('rdf-dublin-core.xml'),
    contentType: 'application/rdf+xml',
    feedTitle: 'Journal of Feed Studies',
    entry: {
      title: 'On the parsing of feeds',
      url: 'https://journal.example/a/101',
      author: 'Curie, M., Noether, E.',
      published: '2026-11-16T08:30:00.000000Z',
      content: 'We measure parsers.',
    },
  },
  ...(
    [
      ['dcterms issued', '2026-11-01T10:00:00.000000Z', 'Dee'],
      ['dcterms modified', '2026-11-02T15:00:00.000000Z'],
      ['EST zone', '2026-11-03T13:00:00.000000Z'],
      ['No zone', '2026-11-04T08:00:00.000000Z'],
      ['Colon zone and two-digit year', '2026-11-05T07:00:00.000000Z'],
      ['Military zone', '2026-11-06T08:00:00.000000Z'],
      ['Slashed', '2020-01-10T14:33:00.000000Z'],
      ['W3C-DTF in pubDate', '2026-11-07T06:00:00.250000Z'],
      ['Day only', '2026-11-08T00:00:00.000000Z'],
      ['Email and creator', '2026-11-09T08:00:00.000000Z', 'Sam'],
    ] as const
  ).map(([title, published, author]) => ({
    name: `date: ${title}`,
    body: file('rss-dates-and-authors.xml'),
    contentType: 'application/rss+xml',
    pick: title,
    entry: { published, ...(author ? { author } : {}) },
  })),
  {
    name: 'Atom: two authors joined; link resolved against xml:base, fragment kept',
    body: file('atom-authors-links.xml'),
    contentType: 'application/atom+xml',
    pick: 'Two authors',
    entry: {
      url: 'https://base.example/blog/posts/two#comments',
      author: 'Ann, Ben',
      published: '2026-11-17T10:00:00.000000Z',
    },
  },
  {
    name: "Atom: the source's author; an entry's own xml:base; query and fragment kept",
    body: file('atom-authors-links.xml'),
    contentType: 'application/atom+xml',
    pick: 'Source author',
    entry: {
      url: 'https://other.example/archive/2026/source.html?utm_source=feed#top',
      author: 'Originator',
      published: '2026-11-16T10:00:00.000000Z',
    },
  },
  {
    name: 'two posts told apart only by their link fragments',
    body: file('scripting-fragments.xml'),
    contentType: 'application/rss+xml',
    entry: {
      title: null,
      url: 'http://scripting.com/2017/06/26.html#a100632',
      published: '2017-06-26T10:06:32.000000Z',
    },
  },
  // Real-world-shaped samples
  {
    name: 'WordPress RSS (numeric entities, CDATA, dc:creator, content:encoded)',
    body: file('real-wordpress.xml'),
    contentType: 'application/rss+xml; charset=UTF-8',
    feedTitle: 'A Personal Blog \u2013 Notes',
    entry: {
      title: 'Gardening & the \u201clong now\u201d',
      url: 'https://wp.example/2026/11/gardening/',
      author: 'Robin',
      published: '2026-11-18T07:14:02.000000Z',
      summary: 'Planting trees for someone else\u2019s shade. The about page explains.',
    },
  },
  {
    name: 'podcast RSS (itunes:author, HTML description, -0800)',
    body: file('real-podcast.xml'),
    contentType: 'application/rss+xml',
    feedTitle: 'The Feed Show',
    entry: {
      title: 'Episode 12: Encodings',
      url: 'https://podcast.example/12',
      author: 'Kim & Lou',
      published: '2026-11-17T13:00:00.000000Z',
      content: 'We talk about <b>byte order marks</b>.',
    },
  },
  {
    name: 'Blogger Atom (PI first, text title with "<3", replies links, iframe dropped)',
    body: file('real-blogger.xml'),
    contentType: 'application/atom+xml; charset=UTF-8',
    feedTitle: 'Maps & Places',
    entry: {
      title: 'Old maps <3',
      url: 'https://maps-blog.example/2026/11/old-maps.html',
      author: 'Lena',
      published: '2026-11-16T20:01:00.000000Z',
      summary: 'Old maps are lovely.',
    },
  },
  // Rules found by comparing with Python feedparser's own test suite (bench/reader-fidelity)
  {
    name: 'Atom 0.3 mode="xml" inline XHTML in titles and content; escaped text in it stays text',
    body: file('atom03-inline-markup.xml'),
    contentType: 'application/atom+xml',
    feedTitle: 'Inline feed title',
    entry: {
      title: 'History of the <blink> tag',
      url: 'https://inline03.example/blink',
      published: '2026-11-18T10:00:00.000000Z',
      content: '<div>safe <b>description</b></div>',
    },
  },
  {
    name: 'undeclared markup inside an Atom text title and summary is markup',
    body: file('atom03-inline-markup.xml'),
    contentType: 'application/atom+xml',
    entry: {
      title: 'Naked markup in a title',
      url: 'https://inline03.example/naked',
      content: 'A summary with <em>naked</em> markup.',
    },
  },
  {
    name: 'a script in a declared-HTML Atom title is not part of the title',
    body: file('atom03-inline-markup.xml'),
    contentType: 'application/atom+xml',
    entry: { title: 'safe title', url: 'https://inline03.example/script-title' },
  },
  {
    name: 'Atom 1.0 content of a non-text media type is base64 (RFC 4287 §4.1.3.3)',
    body: file('atom-base64-media-type.xml'),
    contentType: 'application/atom+xml',
    entry: {
      title: 'Example <b>Atom</b>',
      url: 'https://b64type.example/1',
      content: '&lt;p&gt;History of the &amp;lt;blink&amp;gt; tag&lt;/p&gt;',
    },
  },
  {
    name: 'RSS <body> is content, its script dropped',
    body: file('rss-more-content-sources.xml'),
    contentType: XML,
    feedTitle: 'More content sources',
    entry: { title: 'Body', url: 'https://sources2.example/body', content: 'From <b>body</b> markup' },
  },
  {
    name: 'RSS <fullitem> is content',
    body: file('rss-more-content-sources.xml'),
    contentType: XML,
    entry: { title: 'Fullitem', url: 'https://sources2.example/fullitem', content: '<p>From fullitem</p>' },
  },
  {
    name: 'a plain media:description in a media:group is the text',
    body: file('rss-more-content-sources.xml'),
    contentType: XML,
    entry: { url: 'https://sources2.example/media', content: 'Plain &lt;b&gt; media text' },
  },
  {
    name: 'media:title is the title when there is no other; <updated> in RSS dates the item',
    body: file('rss-more-content-sources.xml'),
    contentType: XML,
    entry: {
      title: 'Media title as the title',
      url: 'https://sources2.example/media-title',
      published: '2026-11-19T07:00:00.000000Z',
    },
  },
  {
    name: 'an Atom entry with only a rel="self" link has no link',
    body: file('links-alternate-and-guids.xml'),
    contentType: 'application/atom+xml',
    pick: 'Only a self link',
    entry: { url: null },
  },
  {
    name: 'an Atom id that is an http(s) URL is the link when there is none',
    body: file('links-alternate-and-guids.xml'),
    contentType: 'application/atom+xml',
    entry: { title: 'An http id and no link', url: 'https://links.example/posts/2' },
  },
  {
    name: 'an RSS guid with isPermaLink="false" is not a link',
    body: file('rss-guid-not-permalink.xml'),
    contentType: XML,
    pick: 'Not a permalink',
    entry: { url: null },
  },
  {
    name: 'an RSS guid that is a permalink is the link',
    body: file('rss-guid-not-permalink.xml'),
    contentType: XML,
    entry: { title: 'A permalink', url: 'https://guids.example/posts/2' },
  },
  {
    name: 'an Atom-style <link href> in RSS is the link',
    body: file('rss-guid-not-permalink.xml'),
    contentType: XML,
    entry: { title: 'Atom-style link in RSS', url: 'https://guids.example/posts/3' },
  },
  {
    name: '<feed> without the Atom default namespace is read as Atom',
    body: file('feed-without-atom-namespace.xml'),
    contentType: XML,
    feedTitle: 'No default namespace',
    entry: {
      title: 'Read as Atom',
      url: 'https://nons.example/1',
      author: 'Noa',
      published: '2026-11-18T10:00:00.000000Z',
    },
  },
  {
    name: 'a prefixed <r:rss> root',
    body: file('rss-prefixed-root.xml'),
    contentType: XML,
    feedTitle: 'Prefixed RSS',
    entry: {
      title: 'In a prefix',
      url: 'https://prefixed.example/1',
      published: '2026-11-18T10:00:00.000000Z',
    },
  },
  {
    name: 'a CDF channel: ITEM HREF, LASTMOD and ABSTRACT',
    body: file('cdf-channel.xml'),
    contentType: XML,
    feedTitle: 'A CDF channel',
    entry: {
      title: 'CDF item',
      url: 'https://cdf.example/1',
      published: '2004-04-07T04:05:43.000000Z',
      content: 'From the abstract',
    },
  },
  ...(['utf-32le', 'utf-32be'] as const).map((encoding) => ({
    name: `${encoding.toUpperCase()} without a BOM is recognised by its first character`,
    body: () =>
      iconv.encode(legacyRss('utf-8', 'Vier Bytes \u00e0 la fois', 'UTF-32')().toString('utf8'), encoding),
    contentType: XML,
    entry: { title: 'Vier Bytes \u00e0 la fois' },
  })),
  {
    name: 'C1 controls in UTF-8 (raw or &#146;) are the windows-1252 characters they were meant as',
    body: () =>
      Buffer.from(
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>C1</title>' +
          '<item><title>don\u0092t</title><link>https://c1.example/1</link>' +
          '<description>it&#146;s \u0093quoted\u0094</description></item></channel></rss>',
        'utf8',
      ),
    contentType: XML,
    entry: { title: 'don\u2019t', url: 'https://c1.example/1', content: 'it\u2019s \u201cquoted\u201d' },
  },
  {
    name: 'an Atom entry without authors has the feed authors (RFC 4287 §4.2.1)',
    body: file('authors-entry-and-feed.xml'),
    contentType: 'application/atom+xml',
    entry: { title: 'No author of its own', url: 'https://feedauthors.example/1', author: 'Fay' },
  },
  {
    name: 'an Atom entry with an author keeps its own',
    body: file('authors-entry-and-feed.xml'),
    contentType: 'application/atom+xml',
    entry: { title: 'Its own author', url: 'https://feedauthors.example/2', author: 'Gil' },
  },
  // Authors: one vocabulary by precedence (Atom author, dc:creator, dc:author, RSS author,
  // itunes:author), its repeated elements joined; never names from two vocabularies (issue 36).
  ...(
    [
      ['Creator then show', 'Marco Arment'],
      ['Show then creator', 'Casey Liss'],
      ['Show only', 'ATP'],
      ['Address and creator', 'Sam'],
      ['Address and show', 'John Siracusa'],
      ['Two creators and a show', 'Ann, Ben'],
      ['Atom author in RSS', 'Eve'],
    ] as const
  ).map(([title, author]) => ({
    name: `RSS author by precedence: ${title}`,
    body: file('authors-precedence.xml'),
    contentType: XML,
    pick: title,
    entry: { author },
  })),
  ...(
    [
      ['Two authors and a creator', 'Ann, Ben'],
      ['A creator only', 'Dee'],
    ] as const
  ).map(([title, author]) => ({
    name: `Atom author by precedence: ${title}`,
    body: file('authors-precedence-atom.xml'),
    contentType: 'application/atom+xml',
    pick: title,
    entry: { author },
  })),
  ...(
    [
      ['Authors and author', 'Ada, Grace'],
      ['Author only', 'Lin'],
      ['No author of its own', 'Feed Writer, Feed Editor'],
    ] as const
  ).map(([title, author]) => ({
    name: `JSON Feed author by precedence: ${title}`,
    body: file('json-feed-authors-precedence.json'),
    contentType: 'application/feed+json',
    pick: title,
    entry: { author },
  })),
  {
    name: 'neither the channel dc:creator nor an item dc:publisher is the item author',
    body: file('rss-channel-creator.xml'),
    contentType: XML,
    entry: { title: 'Published by an editor', url: 'https://publisher.example/1', author: null },
  },
];
