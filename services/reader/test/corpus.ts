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
  /** The entry with this title (default: the first listed, the newest). */
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
    body: legacyRss('windows-1252', '\u201cSmart\u201d quotes aren\u2019t C1 controls \u2014 caf\u00e9', 'ISO-8859-1'),
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
    body: () => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(legacyRss('utf-8', '\u00c9t\u00e9 \u65e5\u672c', 'UTF-16')().toString('utf8'), 'utf-16le')]),
    contentType: XML,
    entry: { title: '\u00c9t\u00e9 \u65e5\u672c' },
  },
  {
    name: 'a UTF-8 BOM before a declaration that says otherwise',
    body: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), legacyRss('utf-8', 'B\u00f6m first', 'windows-1252')()]),
    contentType: XML,
    entry: { title: 'B\u00f6m first' },
  },
];
