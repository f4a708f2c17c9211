// A small client for end-to-end flows through the gateway: XML-RPC calls (publishing) and polling until
// an effect shows (events cross processes asynchronously).

function xmlValue(v: string | boolean | Record<string, string>): string {
  if (typeof v === 'boolean') return `<boolean>${v ? 1 : 0}</boolean>`;
  if (typeof v === 'string') return `<string>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string>`;
  return `<struct>${Object.entries(v)
    .map(([k, x]) => `<member><name>${k}</name><value>${xmlValue(x)}</value></member>`)
    .join('')}</struct>`;
}

export async function xmlrpc(
  base: string,
  method: string,
  params: (string | boolean | Record<string, string>)[],
) {
  const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${params
    .map((p) => `<param><value>${xmlValue(p)}</value></param>`)
    .join('')}</params></methodCall>`;
  const res = await fetch(`${base}/xmlrpc`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('<fault>')) throw new Error(`${method}: ${res.status} ${text}`);
  return text;
}

export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The post id in a metaWeblog.newPost answer. */
export function newPostId(answer: string): string {
  const id = /<value>(?:<(?:string|int|i4)>)?(\d+)/.exec(answer)?.[1];
  if (!id) throw new Error(`no post id in ${answer}`);
  return id;
}
