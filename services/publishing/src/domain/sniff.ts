// Does an upload's content agree with its declared media type? (An upload must be what it says it is, so a browser never runs it as something else.) The declared family
// (image, audio, video, PDF) must match the leading bytes, and nothing that a browser could take for HTML
// is accepted under any type.
export type MediaFamily = 'image' | 'audio' | 'video' | 'pdf';

/** The family of an allowed media type, or null when the type is not allowed. */
export function allowedFamily(mediaType: string): MediaFamily | null {
  if (mediaType === 'application/pdf') return 'pdf';
  const m = /^(image|audio|video)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.exec(mediaType);
  return m ? (m[1] as MediaFamily) : null;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  text.split('').every((c, i) => bytes[at + i] === c.charCodeAt(0));
const hex = (bytes: Uint8Array, at: number, pattern: number[]) =>
  pattern.every((b, i) => bytes[at + i] === b);

/** The ISO base media brand (`ftyp` box): mp4, mov, m4a, avif, heic… */
function ftypBrand(bytes: Uint8Array): string | null {
  return ascii(bytes, 4, 'ftyp') ? String.fromCharCode(...bytes.subarray(8, 12)) : null;
}

// The HTML signatures of the WHATWG MIME sniffing standard (what a browser without nosniff looks for).
const HTML_STARTS = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 512))
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .replace(/^[\t\n\f\r ]+/, '')
    .toLowerCase();
  return HTML_STARTS.some((start) => {
    if (!head.startsWith(start)) return false;
    if (start === '<!--') return true;
    const next = head.charAt(start.length);
    return next === '' || next === ' ' || next === '>' || next === '\t' || next === '\n' || next === '\r';
  });
}

/**
 * An XML declaration, comments, then `<svg`. Each comment ends at its first `-->`: with a lazy
 * `[\s\S]*?` a comment could also swallow the next ones, and a failing match would try every way of
 * grouping them (exponential in the number of comments, within the 1 KiB head).
 */
const SVG_START = /^(?:<\?xml[^>]*>\s*)?(?:<!--(?:(?!-->)[\s\S])*-->\s*)*<svg[\s>]/i;

function isSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return SVG_START.test(head);
}

function isImage(bytes: Uint8Array, mediaType: string): boolean {
  if (mediaType === 'image/svg+xml') return isSvg(bytes);
  const brand = ftypBrand(bytes);
  return (
    hex(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || // PNG
    hex(bytes, 0, [0xff, 0xd8, 0xff]) || // JPEG
    ascii(bytes, 0, 'GIF87a') ||
    ascii(bytes, 0, 'GIF89a') ||
    (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) ||
    ascii(bytes, 0, 'BM') ||
    hex(bytes, 0, [0x00, 0x00, 0x01, 0x00]) || // ICO
    hex(bytes, 0, [0x49, 0x49, 0x2a, 0x00]) || // TIFF, little-endian
    hex(bytes, 0, [0x4d, 0x4d, 0x00, 0x2a]) || // TIFF, big-endian
    (brand !== null && /^(avif|avis|heic|heix|mif1|msf1)$/.test(brand))
  );
}

function isAudio(bytes: Uint8Array): boolean {
  const brand = ftypBrand(bytes);
  return (
    ascii(bytes, 0, 'ID3') ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) || // MPEG audio frame / ADTS
    ascii(bytes, 0, 'OggS') ||
    ascii(bytes, 0, 'fLaC') ||
    (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) ||
    (ascii(bytes, 0, 'FORM') && ascii(bytes, 8, 'AIFF')) ||
    ascii(bytes, 0, '#!AMR') ||
    hex(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3]) || // WebM / Matroska audio
    brand !== null
  );
}

function isVideo(bytes: Uint8Array): boolean {
  return (
    ftypBrand(bytes) !== null || // MP4, MOV, 3GP
    hex(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3]) || // WebM / Matroska
    ascii(bytes, 0, 'OggS') ||
    (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'AVI ')) ||
    ascii(bytes, 0, 'FLV') ||
    hex(bytes, 0, [0x00, 0x00, 0x01, 0xba]) || // MPEG program stream
    hex(bytes, 0, [0x00, 0x00, 0x01, 0xb3]) ||
    (bytes[0] === 0x47 && bytes[188] === 0x47) // MPEG transport stream
  );
}

export function contentAgrees(bytes: Uint8Array, mediaType: string, family: MediaFamily): boolean {
  if (mediaType !== 'image/svg+xml' && looksLikeHtml(bytes)) return false;
  switch (family) {
    case 'image':
      return isImage(bytes, mediaType);
    case 'audio':
      return isAudio(bytes);
    case 'video':
      return isVideo(bytes);
    case 'pdf':
      return ascii(bytes, 0, '%PDF-');
  }
}
