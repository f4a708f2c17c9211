// Reading ActivityStreams documents as servers write them (compacted JSON-LD): a value may be a
// string, an object with an `id`, or an array of either; natural-language maps stand beside plain text.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The id of a reference: a URL string, or an object's `id`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return httpUrl(value);
  if (isRecord(value) && typeof value.id === 'string') return httpUrl(value.id);
  return undefined;
}

/** Every id of a value that may be one reference or an array of them. */
export function idsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map(idOf).filter((v): v is string => v !== undefined);
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A URL value: a string, a Link's `href`, or the first of an array of them. */
export function firstUrl(value: unknown): string | undefined {
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item === 'string') {
      const url = httpUrl(item);
      if (url) return url;
    } else if (isRecord(item)) {
      const url = typeof item.href === 'string' ? httpUrl(item.href) : idOf(item);
      if (url) return url;
    }
  }
  return undefined;
}

export const PUBLIC_COLLECTION = 'https://www.w3.org/ns/activitystreams#Public';
const PUBLIC_FORMS = new Set([PUBLIC_COLLECTION, 'as:Public', 'Public']);

/** Whether an object or activity is addressed to everyone (`to` or `cc` holds the Public collection). */
export function isPublic(doc: Record<string, unknown>): boolean {
  for (const field of [doc.to, doc.cc]) {
    for (const item of Array.isArray(field) ? field : [field]) {
      if (typeof item === 'string' && PUBLIC_FORMS.has(item)) return true;
    }
  }
  return false;
}

/** The type of a document, the first when it has several. */
export function typeOf(doc: unknown): string | undefined {
  if (!isRecord(doc)) return undefined;
  const t = Array.isArray(doc.type) ? doc.type[0] : doc.type;
  return typeof t === 'string' ? t : undefined;
}
