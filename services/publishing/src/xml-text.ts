// Text that goes into XML (XML-RPC responses, RSS, RSD) or is stored to be sent as XML later.

const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the characters XML 1.0 forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Drops the characters XML 1.0 cannot carry (C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). */
export function stripNonXmlCharacters(text: string): string {
  return text.replace(NOT_XML, '');
}

/** Escapes `&`, `<`, `>` after dropping what XML cannot carry. */
export function escapeXmlText(text: string): string {
  return stripNonXmlCharacters(text).replace(/[&<>]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;',
  );
}

/** escapeXmlText plus `"`, for attribute values. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;');
}
