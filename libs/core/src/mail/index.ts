// Reading a raw RFC 5322 message just enough to show it to a person or a test: the subject, the
// recipients, the text with quoted-printable undone, and the links in it. Not a general MIME parser.

export interface ReadableEmail {
  subject: string;
  to: string[];
  /** The message with quoted-printable soft breaks and escapes undone. */
  text: string;
  /** Every http(s) URL in the message, in order, with `&amp;` undone. */
  links: string[];
}

export function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function readRawEmail(raw: string): ReadableEmail {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const headers = (headerEnd >= 0 ? raw.slice(0, headerEnd) : raw).replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
  const toHeader = /^To: (.*)$/im.exec(headers)?.[1] ?? '';
  // Tokens between separators that hold an `@` with something on both sides. (One unanchored
  // expression over the header rescanned a long token without `@` from every position: quadratic.)
  const to = toHeader.split(/[\s<>,"]+/).filter((token) => /^.+@.+$/s.test(token));
  const text = decodeQuotedPrintable(raw);
  const links = [...text.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0].replace(/&amp;/g, '&'));
  return { subject, to, text, links };
}
