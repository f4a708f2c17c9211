// IndieAuth test support: client sites on made-up hosts (served from 127.0.0.1, reached through an
// injected resolver), a signed-in browser session, and the steps of the flow as a client and a person
// perform them.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { TestResponse } from './harness.js';
import { followSigninLink, hiddenField, startIdentity, tokenFromMail, type Harness } from './harness.js';

export { hiddenField };

export interface ClientPage {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ClientSites {
  port: number;
  /** `http://<host>:<port><path>` */
  url(host: string, path?: string): string;
  /** Serve `page` at host + path (the path without query). */
  serve(host: string, path: string, page: ClientPage): void;
  /** Requests received for a host (any path). */
  requests(host: string): number;
  stop(): Promise<void>;
}

export async function startClientSites(): Promise<ClientSites> {
  const pages = new Map<string, ClientPage>();
  const counts = new Map<string, number>();
  const hostOf = (req: IncomingMessage) => (req.headers.host ?? '').replace(/:\d+$/, '');
  const server: Server = createServer((req, res) => {
    const host = hostOf(req);
    counts.set(host, (counts.get(host) ?? 0) + 1);
    const page = pages.get(`${host}${(req.url ?? '/').split('?')[0]}`);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...page.headers });
    res.end(page.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    serve: (host, path, page) => pages.set(`${host}${path}`, page),
    requests: (host) => counts.get(host) ?? 0,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Made-up `*.test` hosts resolve to the local client sites; nothing else resolves. */
export async function resolveTestHosts(hostname: string): Promise<LookupAddress[]> {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

/**
 * Identity whose outbound fetches may reach the client sites on 127.0.0.1 (the operator allow-list).
 * PKCE is optional here, as for an operator who opted out: most files test other rules and also send
 * the PKCE-less requests older clients send. 400-auth-screen-pkce-required-by-default.test.ts tests
 * the default (required); pass `INDIEAUTH_REQUIRE_PKCE: 'true'` to get it.
 */
export function startIndieAuthIdentity(env: Record<string, string> = {}): Promise<Harness> {
  return startIdentity(
    { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', INDIEAUTH_REQUIRE_PKCE: 'false', ...env },
    { resolve: resolveTestHosts },
  );
}

/** Follows an emailed web sign-in link (and confirms it) and returns the `murmur_session=…` cookie pair. */
export async function signInBrowser(h: Harness, email: string): Promise<string> {
  const token = tokenFromMail(await h.signinMail(email));
  const res = await followSigninLink(h, `/account/signin/web?token=${token}`);
  const cookie = /murmur_session=[^;]+/.exec(String(res.headers['set-cookie']))?.[0];
  if (!cookie) throw new Error(`no session cookie: ${res.statusCode}`);
  return cookie;
}

export function screen(h: Harness, params: Record<string, string>, cookie?: string): Promise<TestResponse> {
  return h.inject({
    method: 'GET',
    url: `/indieauth/auth?${new URLSearchParams(params)}`,
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

/** POST a form (`application/x-www-form-urlencoded`); repeated names as [name, value] pairs. */
export function postForm(
  h: Harness,
  url: string,
  fields: Array<[string, string]> | Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields)).toString();
  return h.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body,
  });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * Opens the screen signed in, approves (optionally with a chosen set of ticked scopes) and returns
 * the redirect the browser is sent to.
 */
export async function approve(
  h: Harness,
  cookie: string,
  params: Record<string, string>,
  options: { ticked?: string[]; deny?: boolean } = {},
): Promise<URL> {
  const page = await screen(h, params, cookie);
  if (page.statusCode !== 200) throw new Error(`screen: ${page.statusCode} ${page.body}`);
  const fields: Array<[string, string]> = [
    ['request', hiddenField(page.body, 'request')],
    ['csrf', hiddenField(page.body, 'csrf')],
  ];
  if (options.ticked) {
    fields.push(['scope', '']);
    for (const s of options.ticked) fields.push(['scope', s]);
  }
  if (options.deny) fields.push(['deny', '1']);
  const res = await postForm(h, '/indieauth/approve', fields, { cookie });
  if (res.statusCode !== 302) throw new Error(`approve: ${res.statusCode} ${res.body}`);
  return new URL(String(res.headers.location));
}

/** The code of an approved request. */
export async function authorizationCode(
  h: Harness,
  cookie: string,
  params: Record<string, string>,
  options: { ticked?: string[] } = {},
): Promise<string> {
  const location = await approve(h, cookie, params, options);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.href}`);
  return code;
}
