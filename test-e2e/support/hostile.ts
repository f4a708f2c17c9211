// Hostile requests for every routed endpoint, a raw HTTP client that sends them exactly as written
// (duplicate headers, un-normalised paths), and a prober that measures how long /healthz takes while
// they are in flight. Used by test-e2e/security; docs/security.md lists what is covered.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RouteCase } from './routes.js';

export interface HostileRequest {
  /** What is hostile about it, e.g. `repeated query parameters`. */
  kind: string;
  route: RouteCase;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  /** The server may close the connection instead of answering (headers or body far over the limit). */
  mayReset?: boolean;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Outcome {
  request: HostileRequest;
  response: RawResponse | null;
  error: string | null;
  startedAt: number;
  endedAt: number;
}

const MAX_BODY_KEPT = 256 * 1024;

/** Sends one request as written; the body read is cut at 256 KiB. */
export function rawRequest(
  baseUrl: string,
  req: Pick<HostileRequest, 'method' | 'path' | 'headers' | 'body'>,
  agent: http.Agent,
  timeoutMs = 30_000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = http.request(
      { host: hostname, port: Number(port), method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < MAX_BODY_KEPT) chunks.push(c);
          kept += c.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Runs `tasks` with at most `concurrency` at once, in order of the list. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

export async function sendAll(
  baseUrl: string,
  requests: readonly HostileRequest[],
  concurrency = 4,
): Promise<Outcome[]> {
  // A connection per request: a server may close one mid-request (431, 413), and a reused socket
  // would then fail the next, innocent request.
  const agent = new http.Agent({ keepAlive: false, maxSockets: concurrency });
  const one = async (request: HostileRequest): Promise<Outcome> => {
    const startedAt = performance.now();
    try {
      const response = await rawRequest(baseUrl, request, agent);
      return { request, response, error: null, startedAt, endedAt: performance.now() };
    } catch (err) {
      return { request, response: null, error: String(err), startedAt, endedAt: performance.now() };
    }
  };
  try {
    // Requests the server may cut off (headers or body over the limit) go one at a time, first: run
    // beside others in this one process, a reset of theirs has been seen to take a neighbour's
    // connection down with it, which would blame the neighbour.
    const cut = await inPool(
      requests.filter((r) => r.mayReset),
      1,
      one,
    );
    const rest = await inPool(
      requests.filter((r) => !r.mayReset),
      concurrency,
      one,
    );
    // A connection dropped without an answer while others were in flight is tried again alone; only
    // an answer missing then too counts (the report of such drops is in docs/security.md).
    for (let i = 0; i < rest.length; i++)
      if (rest[i]!.response === null) rest[i] = await one(rest[i]!.request);
    return [...cut, ...rest];
  } finally {
    agent.destroy();
  }
}

// --- the responsiveness prober ------------------------------------------------------------------

const PROBE_PAUSE_MS = 5;

export interface Probe {
  startedAt: number;
  ms: number;
}

/**
 * GET /healthz over its own connection, one after another with a short pause, until stopped. A probe's
 * time is its answer plus how late the pause ended. Everything of a single process shares one event
 * loop, so a request that blocks it shows up as a slow probe.
 */
export class Prober {
  readonly probes: Probe[] = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly baseUrl: string) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const startedAt = performance.now();
        try {
          await rawRequest(
            this.baseUrl,
            { method: 'GET', path: '/healthz', headers: {} },
            this.agent,
            60_000,
          );
        } catch {
          /* counted by its time */
        }
        // The pause between probes counts too: the client shares the event loop, so a block that
        // falls between two probes shows up as a late timer rather than a slow answer.
        await new Promise((r) => setTimeout(r, PROBE_PAUSE_MS));
        this.probes.push({ startedAt, ms: performance.now() - startedAt - PROBE_PAUSE_MS });
      }
    })();
  }

  async stop(): Promise<Probe[]> {
    this.running = false;
    await this.loop;
    this.agent.destroy();
    return this.probes;
  }
}

/**
 * How much slower than its own CPU time this process runs right now (≥ 1): a busy loop's wall time over
 * its CPU time. On an idle machine it is about 1; on a 2-core machine shared with other jobs it can be
 * 5 or more, and every bound on wall time must stretch by it.
 */
export function contention(sampleMs = 30): number {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const wallStart = performance.now();
  const cpuStart = cpu();
  let x = 0;
  while (performance.now() - wallStart < sampleMs) for (let i = 0; i < 10_000; i++) x = (x * 31 + i) | 0;
  const used = Math.max(cpu() - cpuStart, 1);
  return x === 0.5 ? 1 : Math.min(Math.max((performance.now() - wallStart) / used, 1), 20);
}

// --- what a hostile answer must not be ----------------------------------------------------------

const STACK_FRAME = /\n\s*at [^\n]*[:(]\d+:\d+\)?/;
const INTERNAL_PATH =
  /(?:\/(?:work|home|root|usr|opt|srv|tmp|var)\/[\w.-]+\/|node_modules|[\w-]+\.(?:ts|js|mjs|cjs):\d+|file:\/\/\/)/;
const ERROR_NAME = /\b(?:TypeError|RangeError|SyntaxError|ReferenceError|AssertionError|MongoError)\b/;

/** Why the outcome is not acceptable, or null: a 4xx or the endpoint's normal answer only. */
export function violation(outcome: Outcome, dataDir: string): string | null {
  const { response, error, request } = outcome;
  if (!response) return request.mayReset ? null : `no response: ${error}`;
  // The gateway's answer for a path that another route, of a service this deployment lacks, owns.
  if (response.status === 503 && /not running in this deployment/.test(response.body)) return null;
  if (response.status >= 500) return `status ${response.status}: ${response.body.slice(0, 300)}`;
  if (response.status < 100) return `status ${response.status}`;
  const body = response.body;
  if (STACK_FRAME.test(body)) return `a stack trace in the body: ${body.slice(0, 300)}`;
  if (body.includes(dataDir)) return `the data directory in the body: ${body.slice(0, 300)}`;
  const path = INTERNAL_PATH.exec(body);
  if (path && !/^text\/html/.test(String(response.headers['content-type'] ?? '')))
    return `an internal path (${path[0]}) in the body: ${body.slice(0, 300)}`;
  if (ERROR_NAME.test(body)) return `an internal error name in the body: ${body.slice(0, 300)}`;
  return null;
}

// --- the hostile requests -----------------------------------------------------------------------

export interface Credentials {
  /** Bearer token of an ordinary user. */
  user: string;
  username: string;
  /** The operator token, for /admin rows. */
  admin: string;
}

const KB = 1024;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const split = (path: string) => {
  const q = path.indexOf('?');
  return q === -1 ? { pathname: path, query: '' } : { pathname: path.slice(0, q), query: path.slice(q + 1) };
};
const withQuery = (path: string, extra: string) => `${path}${path.includes('?') ? '&' : '?'}${extra}`;

const isXmlRoute = (r: RouteCase) => /xml/.test(r.contentType ?? '') || r.path.startsWith('/xmlrpc');

function deepJson(levels: number, open: string, close: string): string {
  return open.repeat(levels) + '1' + close.repeat(levels);
}

const BILLION_LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ).join('') +
  ']>';

/** The ordinary body of the route, with `value` in place of each parameter value. */
function formLike(route: RouteCase, value: string): string {
  const names = route.body && route.contentType === FORM ? [...new URLSearchParams(route.body).keys()] : [];
  const all = names.length > 0 ? names : ['a'];
  return all.map((n) => `${encodeURIComponent(n)}=${value}`).join('&');
}

/** Names of the sample's query parameters (or `a`), to repeat and malform. */
function queryNames(route: RouteCase): string[] {
  const names = [...new URLSearchParams(split(route.path).query).keys()];
  return names.length > 0 ? names : ['a'];
}

export interface VariantOptions {
  credentials: Credentials;
}

type Variant = Omit<HostileRequest, 'route' | 'method' | 'headers'> & {
  method?: string;
  headers?: Record<string, string | string[]>;
  /** No Authorization of our own (the variant brings its own, or none). */
  anonymous?: boolean;
};

function authFor(route: RouteCase, c: Credentials): string {
  return `Bearer ${route.pattern.startsWith('/admin/') ? c.admin : c.user}`;
}

function finish(route: RouteCase, c: Credentials, v: Variant): HostileRequest {
  const headers: Record<string, string | string[]> = { ...(v.headers ?? {}) };
  if (!v.anonymous && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
    headers.authorization = authFor(route, c);
  return {
    kind: v.kind,
    route,
    method: v.method ?? route.method,
    path: v.path,
    headers,
    body: v.body,
    mayReset: v.mayReset,
  };
}

/** Oversized, repeated and malformed parameters, in the query and (where a body is taken) the form body. */
export function parameterVariants(route: RouteCase, o: VariantOptions): HostileRequest[] {
  const big = 'a'.repeat(100 * KB);
  const names = queryNames(route);
  const takesBody = BODY_METHODS.has(route.method);
  const v: Variant[] = [
    { kind: 'a 100 KB query parameter', path: withQuery(route.path, `x=${big}`), mayReset: true },
    { kind: '2,000 × a=1 in the query', path: withQuery(route.path, 'a=1&'.repeat(2000)) },
    {
      kind: "2,000 × the route's own parameter",
      path: withQuery(route.path, `${names[0]}=1&`.repeat(2000)),
    },
    { kind: 'invalid UTF-8 %ff in the query', path: withQuery(route.path, `${names[0]}=%ff%fe&%ff=1`) },
    { kind: 'NUL %00 in the query', path: withQuery(route.path, `${names[0]}=a%00b&a%00=1`) },
    {
      kind: 'a lone surrogate %ED%A0%80 and a bare %',
      path: withQuery(route.path, `${names[0]}=%ED%A0%80&b=%`),
    },
    {
      kind: 'overlong ids in parameters',
      path: withQuery(route.path, names.map((n) => `${n}=99999999999999999999`).join('&')),
    },
    {
      kind: '__proto__ and constructor parameters',
      path: withQuery(route.path, '__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=x'),
    },
    {
      kind: 'bracketed names a[999999]=1&a[]=2',
      path: withQuery(route.path, 'a[999999]=1&a[]=2&a[x]=3&a[=4'),
    },
  ];
  if (takesBody)
    v.push(
      {
        kind: 'a 100 KB form value',
        path: route.path,
        headers: { 'content-type': FORM },
        body: formLike(route, big),
      },
      {
        kind: '2,000 × a=1 in the form body',
        path: route.path,
        headers: { 'content-type': FORM },
        body: `${formLike(route, '1')}&${'a=1&'.repeat(2000)}`,
      },
      {
        kind: 'invalid UTF-8 and NUL in the form body',
        path: route.path,
        headers: { 'content-type': FORM },
        body: `${formLike(route, '%ff%00')}&%ff=%00&__proto__[polluted]=1`,
      },
    );
  return v.map((x) => finish(route, o.credentials, x));
}

/** Each body type with hostile content, and bodies of the wrong type. */
export function bodyVariants(route: RouteCase, o: VariantOptions): HostileRequest[] {
  const method = BODY_METHODS.has(route.method) ? route.method : 'POST';
  const path = route.path;
  const sampleJson = route.contentType === JSON_TYPE && route.body ? route.body.slice(1, -1) : '';
  const v: Variant[] = [
    {
      kind: 'JSON nested 10,000 levels (arrays)',
      method,
      path,
      headers: { 'content-type': JSON_TYPE },
      body: deepJson(10_000, '[', ']'),
    },
    {
      kind: 'JSON nested 10,000 levels (objects)',
      method,
      path,
      headers: { 'content-type': JSON_TYPE },
      body: deepJson(10_000, '{"a":', '}'),
    },
    {
      kind: 'JSON with __proto__ and constructor keys',
      method,
      path,
      headers: { 'content-type': JSON_TYPE },
      body: `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}${sampleJson ? `,${sampleJson}` : ''}}`,
    },
    {
      kind: 'JSON that is not JSON',
      method,
      path,
      headers: { 'content-type': JSON_TYPE },
      body: '{"a":1,,"b":\u0000[',
    },
    {
      kind: 'JSON with a lone surrogate and NUL escapes',
      method,
      path,
      headers: { 'content-type': JSON_TYPE },
      body: `{"a":"\\ud800\\u0000","ids":[1e999,-0,99999999999999999999]${sampleJson ? `,${sampleJson}` : ''}}`,
    },
    {
      kind: 'a form body of hostile values',
      method,
      path,
      headers: { 'content-type': FORM },
      body: formLike(route, '%3Cscript%3Ealert(1)%3C%2Fscript%3E') + '&a[]=1&a[0]=2&a=3&&&=&==',
    },
    {
      kind: 'multipart garbage',
      method,
      path,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\u00ff--x\r\n--xyz--garbage',
    },
    {
      kind: 'multipart without a boundary',
      method,
      path,
      headers: { 'content-type': 'multipart/form-data' },
      body: 'a=1',
    },
    {
      kind: 'the sample body under a wrong content-type',
      method,
      path,
      headers: { 'content-type': route.contentType === JSON_TYPE ? FORM : JSON_TYPE },
      body: route.body ?? 'a=1',
    },
    {
      kind: 'a body of text/plain',
      method,
      path,
      headers: { 'content-type': 'text/plain; charset=utf-7' },
      body: '+ADw-script+AD4-',
    },
    {
      kind: 'a malformed content-type',
      method,
      path,
      headers: { 'content-type': ';;; boundary="' },
      body: route.body ?? 'a=1',
    },
  ];
  if (isXmlRoute(route)) {
    const call = (inner: string) =>
      `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params><param><value>0</value></param>` +
      `<param><value>${o.credentials.username}</value></param><param><value>${o.credentials.user}</value></param>` +
      `<param><value>${inner}</value></param></params></methodCall>`;
    const xml = (kind: string, body: string): Variant => ({
      kind,
      method,
      path,
      headers: { 'content-type': 'text/xml' },
      body,
    });
    v.push(
      xml('XML with a billion-laughs DOCTYPE', `${BILLION_LAUGHS}${call('&lol9;')}`),
      xml(
        'XML with an external entity',
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.2/secret">]>${call('&e;')}`,
      ),
      xml(
        'XML nested 10,000 levels',
        call(deepJson(10_000, '<array><data><value>', '</value></data></array>')),
      ),
      xml(
        'XML with 100,000 elements',
        call(`<array><data>${'<value>1</value>'.repeat(100_000)}</data></array>`),
      ),
      xml(
        'OPML with a DOCTYPE and deep outlines',
        `<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x "y">]><opml version="2.0"><body>${'<outline text="&x;">'.repeat(5000)}${'</outline>'.repeat(5000)}</body></opml>`,
      ),
      xml('XML that stops half way', call('<struct><member><name>description</name><value><string>x')),
      xml('XML with a huge attribute', `<opml version="${'a'.repeat(100 * KB)}"><body/></opml>`),
    );
  }
  return v.map((x) => finish(route, o.credentials, x));
}

/** Spellings of credentials and headers a strict parser must survive. */
export function headerVariants(route: RouteCase, o: VariantOptions): HostileRequest[] {
  const c = o.credentials;
  const token = route.pattern.startsWith('/admin/') ? c.admin : c.user;
  const base = { path: route.path, body: route.body, anonymous: true };
  const ct: Record<string, string> = route.contentType ? { 'content-type': route.contentType } : {};
  const v: Variant[] = [
    {
      ...base,
      kind: 'Authorization: bEaReR  <token>',
      headers: { ...ct, authorization: `bEaReR  ${token}` },
    },
    { ...base, kind: 'Authorization: Basic !!!', headers: { ...ct, authorization: 'Basic !!!' } },
    {
      ...base,
      kind: 'Authorization: Basic of a colon-less value',
      headers: { ...ct, authorization: `Basic ${Buffer.from('\u0000\u00ff').toString('base64')}` },
    },
    {
      ...base,
      kind: 'two Authorization headers',
      headers: { ...ct, authorization: [`Bearer ${token}`, 'Bearer other'] },
    },
    {
      ...base,
      kind: 'Authorization: Bearer of 8 KB',
      headers: { ...ct, authorization: `Bearer ${'a'.repeat(8 * KB)}` },
    },
    { ...base, kind: 'Authorization: Bearer with nothing', headers: { ...ct, authorization: 'Bearer ' } },
    { ...base, kind: 'a 20 KB header', headers: { ...ct, 'x-filler': 'a'.repeat(20 * KB) }, mayReset: true },
    {
      ...base,
      kind: 'two Content-Type headers',
      headers: { 'content-type': ['application/json', FORM], authorization: `Bearer ${token}` },
    },
    {
      ...base,
      kind: 'Cookie and Origin of another site',
      headers: { ...ct, cookie: 'murmur_session=%ff; a=; =b', origin: 'https://evil.example' },
    },
  ];
  return v.map((x) => finish(route, c, x));
}

/** Path spellings that must never reach another route's handler or a file. */
export function pathVariants(route: RouteCase, o: VariantOptions): HostileRequest[] {
  const { pathname, query } = split(route.path);
  const q = query ? `?${query}` : '';
  const segments = pathname.split('/');
  const last = segments.length - 1;
  const replaceDigits = pathname.replace(/\d+/g, '99999999999999999999');
  const encodedSlash =
    segments.length > 2 ? `${segments.slice(0, -1).join('%2F')}/${segments[last]}` : `${pathname}%2Fx`;
  const v: Variant[] = [
    { kind: '/..%2f in the path', path: `${pathname}/..%2f..%2f..%2fetc%2fpasswd${q}` },
    { kind: 'a leading //', path: `/${pathname}${q}` },
    { kind: 'doubled slashes inside', path: `${pathname.replace(/\//g, '//')}${q}` },
    { kind: '%2e%2e segments', path: `${pathname}/%2e%2e/%2e%2e/admin/users${q}` },
    { kind: 'a trailing dot', path: `${pathname}.${q}` },
    { kind: 'trailing dots and a slash', path: `${pathname}../${q}` },
    {
      kind: 'overlong ids',
      path: `${replaceDigits === pathname ? `${pathname}/99999999999999999999` : replaceDigits}${q}`,
    },
    { kind: 'encoded slashes %2F', path: `${encodedSlash}${q}` },
    { kind: 'a NUL %00 in the path', path: `${pathname}%00.json${q}` },
    { kind: 'invalid UTF-8 %ff in the path', path: `${pathname}%ff${q}` },
    { kind: 'a bare % in the path', path: `${pathname}%${q}` },
    { kind: 'a backslash and ./', path: `${pathname.replace(/\/([^/]*)$/, '/./\\$1')}${q}` },
    { kind: 'double-encoded ../', path: `${pathname}/%252e%252e%252f${q}` },
  ];
  return v.map((x) => finish(route, o.credentials, x));
}
