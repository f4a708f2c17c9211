// Bytes → text for fetched feeds and pages (docs/api/reader.md "Parsing"). The encoding is decided as
// the XML and HTTP specs and feedparser do it: a byte order mark; else the HTTP charset parameter,
// authoritative for every type, text/* included (RFC 7303 §3: a text/xml without one is not US-ASCII
// any more); else the XML declaration (or an HTML <meta> charset); else UTF-8 when the bytes are valid
// UTF-8; else a detector (jschardet, a port of the detector feedparser uses). ISO-8859-1 and US-ASCII
// labels mean windows-1252 (WHATWG Encoding), so 0x80–0x9F are “smart quotes”, not C1 controls.
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { detect } from 'jschardet';
import { FeedParseError } from './types.js';

/** How the encoding was decided. */
export type EncodingSource = 'bom' | 'http' | 'xml' | 'meta' | 'utf-8' | 'detected' | 'fallback';

export interface Decoded {
  text: string;
  /** The decoder's name (iconv-lite's, or 'utf-8'). */
  encoding: string;
  source: EncodingSource;
}

/** Bytes the detector sees: enough for any of its models, bounded for a large body. */
const DETECT_BYTES = 64 * 1024;

const WINDOWS_1252 = new Set([
  'iso-8859-1', 'iso8859-1', 'iso_8859-1', 'iso_8859-1:1987', 'latin1', 'latin-1', 'l1', 'cp819',
  'ibm819', 'iso-ir-100', 'csisolatin1', 'us-ascii', 'ascii', 'us', 'ansi_x3.4-1968', 'iso-ir-6',
  'iso646-us', 'cp367', 'ibm367', 'csascii', 'windows-1252', 'cp1252', 'x-cp1252',
]); // prettier-ignore

/** WHATWG's supersets for the legacy CJK labels (what browsers decode them as). */
const SUPERSETS: Record<string, string> = {
  gb2312: 'gbk',
  'gb_2312-80': 'gbk',
  'x-gbk': 'gbk',
  'euc-kr': 'cp949',
  'ks_c_5601-1987': 'cp949',
  shift_jis: 'cp932',
  'shift-jis': 'cp932',
  sjis: 'cp932',
  'x-sjis': 'cp932',
  'windows-31j': 'cp932',
  'tis-620': 'windows-874',
  'iso-8859-11': 'windows-874',
  'x-mac-roman': 'macintosh',
};

/** The decoder for a charset label, or null when no decoder knows it. */
export function decoderFor(label: string): string | null {
  const l = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  if (l === '') return null;
  if (WINDOWS_1252.has(l)) return 'windows-1252';
  if (l === 'utf-8' || l === 'utf8' || l === 'unicode-1-1-utf-8') return 'utf-8';
  const name = SUPERSETS[l] ?? l;
  return iconv.encodingExists(name) ? name : null;
}

function bomOf(body: Buffer): { encoding: string; length: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (body[0] === 0xff && body[1] === 0xfe && body[2] === 0 && body[3] === 0)
    return { encoding: 'utf-32le', length: 4 };
  if (body[0] === 0 && body[1] === 0 && body[2] === 0xfe && body[3] === 0xff)
    return { encoding: 'utf-32be', length: 4 };
  if (body[0] === 0xff && body[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** UTF-32 or UTF-16 without a BOM, recognised by `<` or `<?` in four- or two-byte units (XML 1.0 Appendix F). */
function utf16Sniff(body: Buffer): string | null {
  if (body[0] === 0 && body[1] === 0 && body[2] === 0 && body[3] === 0x3c) return 'utf-32be';
  if (body[0] === 0x3c && body[1] === 0 && body[2] === 0 && body[3] === 0) return 'utf-32le';
  if (body[0] === 0x3c && body[1] === 0 && body[2] === 0x3f && body[3] === 0) return 'utf-16le';
  if (body[0] === 0 && body[1] === 0x3c && body[2] === 0 && body[3] === 0x3f) return 'utf-16be';
  return null;
}

/** The `charset` parameter of a Content-Type value, or null. */
export function httpCharset(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*(?:"([^"]{1,64})"|([^\s;"]{1,64}))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** The encoding named by an XML declaration or, for an HTML page, a <meta> in the first kilobyte. */
function declaredInDocument(body: Buffer): { label: string; source: 'xml' | 'meta' } | null {
  const head = body.subarray(0, 1024).toString('latin1');
  const xml = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"'\s]{1,64})["']/i.exec(head);
  if (xml) return { label: xml[1]!, source: 'xml' };
  if (/^\s*<\?xml\s/i.test(head)) return null;
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]{1,64})/i.exec(head);
  return meta ? { label: meta[1]!, source: 'meta' } : null;
}

function decodeWith(body: Buffer, encoding: string): string {
  const text = encoding === 'utf-8' ? body.toString('utf8') : iconv.decode(body, encoding);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function detected(body: Buffer): Decoded {
  const guess = detect(body.subarray(0, DETECT_BYTES));
  const encoding = (guess.encoding && decoderFor(guess.encoding)) ?? 'windows-1252';
  return {
    text: decodeWith(body, encoding),
    encoding,
    source: guess.encoding ? 'detected' : 'fallback',
  };
}

/**
 * The body as text, without a BOM. A declared charset that no decoder knows is refused
 * (FeedParseError naming it) unless the bytes are valid UTF-8: guessing would store mojibake.
 */
export function decodeFeedBody(body: Buffer, contentType?: string): Decoded {
  const bom = bomOf(body);
  if (bom)
    return {
      text: decodeWith(body.subarray(bom.length), bom.encoding),
      encoding: bom.encoding,
      source: 'bom',
    };
  const sniffed = utf16Sniff(body);
  const fromHttp = httpCharset(contentType);
  const declarations = [
    ...(fromHttp === null ? [] : [{ label: fromHttp, source: 'http' as const }]),
    ...[declaredInDocument(body)].filter((d) => d !== null),
  ];
  let unknown: string | null = null;
  for (const declared of declarations) {
    const encoding = decoderFor(declared.label);
    if (encoding === null) {
      unknown ??= declared.label;
      continue;
    }
    // A document that could be read as ASCII to find its declaration is not UTF-16/32 whatever it says.
    if (/^utf-?(16|32)/.test(encoding) && declared.source !== 'http' && sniffed === null) continue;
    if (encoding === 'utf-8' && !isUtf8(body)) return detected(body); // mislabelled: feedparser guesses too
    return { text: decodeWith(body, encoding), encoding, source: declared.source };
  }
  if (unknown !== null && sniffed === null && !isUtf8(body)) {
    throw new FeedParseError(`unknown charset "${unknown.slice(0, 64)}"`);
  }
  if (sniffed) return { text: decodeWith(body, sniffed), encoding: sniffed, source: 'xml' };
  if (isUtf8(body)) return { text: decodeWith(body, 'utf-8'), encoding: 'utf-8', source: 'utf-8' };
  return detected(body);
}
