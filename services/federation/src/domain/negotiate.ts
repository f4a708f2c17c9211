// Content negotiation of actor and note URLs: ActivityPub clients get the JSON document, browsers the
// existing HTML page (docs/api/federation.md, "Content negotiation").

/** Whether an Accept header asks for ActivityStreams JSON rather than a web page. */
export function wantsActivityJson(accept: string | undefined): boolean {
  if (!accept) return true;
  let json = -1;
  let html = -1;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (
      type === 'application/activity+json' ||
      type === 'application/ld+json' ||
      type === 'application/json'
    ) {
      json = Math.max(json, q);
    } else if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, q);
  }
  if (json < 0 && html < 0) return true;
  return json >= html;
}
