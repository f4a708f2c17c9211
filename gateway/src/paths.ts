// The gateway's check of a request path before any route sees it (the Fastify route and the fast lane).

/** Why the path cannot be routed safely, or null. */
export function unsafePath(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes('.') && !path.includes('%')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'The path has a malformed percent-escape.';
  }
  // A `..` segment (plain or percent-encoded) would climb out of the area the route table checked.
  return decoded.split(/[/\\]/).includes('..') ? 'The path must not contain ".." segments.' : null;
}
