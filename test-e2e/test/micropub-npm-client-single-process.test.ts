// A real Micropub client library from npm (micropub-helper, the IndieWeb's JavaScript helper behind apps
// such as Together and Postr) against a whole running Murmur: it discovers the Micropub endpoint from the
// user's `me` page, then creates, queries, updates, deletes and undeletes posts and uploads a file to the
// media endpoint, with an IndieAuth access token issued by Murmur's own flow (sign-in by emailed link,
// consent, PKCE redemption). What the client reports is checked against the site's pages.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@murmur/testing';
import { startInstance, type Instance } from '../support/instance.js';

/** A loopback client: IndieAuth never fetches it. */
const CLIENT_ID = 'http://127.0.0.1:9/micropub-client/';
const REDIRECT_URI = 'http://127.0.0.1:9/micropub-client/callback';
const SCOPE = 'create update delete media';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface MicropubClient {
  options: Record<string, string>;
  getEndpointsFromUrl(url: string): Promise<{ micropub: string; auth: string; token: string }>;
  create(post: unknown, type?: 'json' | 'form' | 'multipart'): Promise<string | null>;
  update(url: string, update: unknown): Promise<unknown>;
  delete(url: string): Promise<unknown>;
  undelete(url: string): Promise<unknown>;
  query(q: string): Promise<Record<string, any>>;
  querySource(url: string | object, properties?: string[]): Promise<Record<string, any>>;
  postMedia(file: unknown): Promise<string>;
  verifyToken(): Promise<boolean>;
}

let murmur: Instance;
let base: string;
let dir: string;
let client: MicropubClient;
let me: string;

function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"\\s*/?>`).exec(html);
  if (!match) throw new Error(`no hidden ${name} field in:\n${html.slice(0, 2000)}`);
  return match[1]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

/** Murmur's IndieAuth code flow as a person's browser drives it; returns the redeemed access token. */
async function indieAuthToken(email: string, authEndpoint: string, tokenEndpoint: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state: 'xyz',
    scope: SCOPE,
    me,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const screen = await (await fetch(`${authEndpoint}?${query}`)).text();
  expect(
    (await fetch(`${base}/indieauth/signin`, form({ request: hidden(screen, 'request'), email }))).status,
  ).toBe(200);
  const mail = await murmur.smtp.waitFor((m) => m.to.includes(email), 15_000);
  const link = new URL(mail.links.find((l) => l.includes('/account/signin/web'))!);
  const confirm = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  const confirmHtml = await confirm.text();
  const confirmCookie = /murmur_signin=[^;]+/.exec(confirm.headers.get('set-cookie') ?? '')![0];
  const landed = await fetch(
    `${base}/account/signin/web`,
    form(
      {
        token: hidden(confirmHtml, 'token'),
        csrf: hidden(confirmHtml, 'csrf'),
        return_to: hidden(confirmHtml, 'return_to'),
      },
      { cookie: confirmCookie },
    ),
  );
  const cookie = /murmur_session=[^;]+/.exec(landed.headers.get('set-cookie') ?? '')![0];
  const consent = await (
    await fetch(`${base}${landed.headers.get('location')}`, { headers: { cookie } })
  ).text();
  const approved = await fetch(
    `${base}/indieauth/approve`,
    form({ request: hidden(consent, 'request'), csrf: hidden(consent, 'csrf') }, { cookie }),
  );
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const redeemed = await fetch(
    tokenEndpoint,
    form({
      grant_type: 'authorization_code',
      code,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  );
  expect(redeemed.status).toBe(200);
  const grant = (await redeemed.json()) as { access_token: string; scope: string; me: string };
  expect(grant.scope).toBe(SCOPE);
  expect(grant.me).toBe(me);
  return grant.access_token;
}

beforeAll(async () => {
  // The client follows the URLs Murmur writes (discovery links, Location headers): PUBLIC_URL is where
  // this Murmur listens.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  murmur = await startInstance({ PORT: String(port), PUBLIC_URL: base });
  dir = mkdtempSync(join(tmpdir(), 'murmur-micropub-e2e-'));
  await murmur.createUser('ada');
  // A user with a site signs in as the site's home page: that is the `me` the client starts from.
  me = `${base}/sites/ada/`;
  // The library sends files with the form-data package, which it loads only where the runtime has no
  // FormData of its own (a browser's); Node's own FormData cannot carry its streams.
  delete (globalThis as { FormData?: unknown }).FormData;
  // The package ships no type declarations; MicropubClient above is what this test uses of it.
  // @ts-expect-error -- untyped CommonJS module
  const { default: Micropub } = (await import('micropub-helper')) as unknown as {
    default: new (options: Record<string, string>) => MicropubClient;
  };
  client = new Micropub({ clientId: CLIENT_ID, redirectUri: REDIRECT_URI, me, scope: SCOPE, state: 'xyz' });
}, 120_000);

afterAll(async () => {
  await murmur?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('micropub-helper against a running Murmur', () => {
  let url: string;

  test('discovers the endpoints from the profile page /ada/ too', async () => {
    const other = new (client.constructor as new (o: Record<string, string>) => MicropubClient)({});
    expect((await other.getEndpointsFromUrl(`${base}/ada/`)).micropub).toBe(`${base}/micropub`);
  });

  test('discovers the micropub, authorization and token endpoints from the me page, and gets a token', async () => {
    const endpoints = await client.getEndpointsFromUrl(me);
    expect(endpoints).toEqual({
      micropub: `${base}/micropub`,
      auth: `${base}/indieauth/auth`,
      token: `${base}/indieauth/token`,
    });
    client.options.token = await indieAuthToken('ada@example.test', endpoints.auth, endpoints.token);
    expect(await client.verifyToken()).toBe(true);
  }, 60_000);

  test('q=config names the media endpoint', async () => {
    const config = await client.query('config');
    expect(config['media-endpoint']).toBe(`${base}/micropub/media`);
    client.options.mediaEndpoint = config['media-endpoint'];
  });

  test('create (JSON) → the permalink, whose page shows the post', async () => {
    url = (await client.create({
      type: ['h-entry'],
      properties: { name: ['From a client'], content: ['Posted by micropub-helper.'], category: ['e2e'] },
    }))!;
    expect(url).toMatch(new RegExp(`^${base}/sites/ada/\\d{4}/\\d{2}/\\d{2}/from-a-client\\.html$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Posted by micropub-helper.');
    expect(html).toContain('class="h-entry"');
  });

  test('create (form-encoded) a like → a u-like-of on its page', async () => {
    const liked = (await client.create({ h: 'entry', 'like-of': 'https://example.com/nice' }, 'form'))!;
    expect(await (await fetch(liked)).text()).toContain('class="u-like-of" href="https://example.com/nice"');
  });

  test('querySource gives the post back, all properties or those asked for', async () => {
    const all = await client.querySource(url);
    expect(all).toMatchObject({
      type: ['h-entry'],
      properties: { name: ['From a client'], content: ['Posted by micropub-helper.'], category: ['e2e'] },
    });
    const some = await client.querySource(url, ['name']);
    expect(some).toEqual({ properties: { name: ['From a client'] } });
  });

  test('update replaces the content on the page', async () => {
    await client.update(url, { replace: { content: ['Edited by micropub-helper.'] } });
    expect(await (await fetch(url)).text()).toContain('Edited by micropub-helper.');
  });

  test('postMedia uploads a file; the post can use its URL', async () => {
    const path = join(dir, 'dot.png');
    writeFileSync(path, PNG);
    const media = await client.postMedia(createReadStream(path));
    expect(media).toMatch(new RegExp(`^${base}/media/\\d+/\\d{4}/[A-Za-z0-9]{16}-dot\\.png$`));
    const served = await fetch(media);
    expect(served.headers.get('content-type')).toBe('image/png');
    const withPhoto = (await client.create({ type: ['h-entry'], properties: { photo: [media] } }))!;
    expect(await (await fetch(withPhoto)).text()).toContain(`class="u-photo" src="${media}"`);
  });

  test('delete → 410 Gone at the permalink; undelete → back', async () => {
    await client.delete(url);
    expect((await fetch(url)).status).toBe(410);
    await client.undelete(url);
    expect((await fetch(url)).status).toBe(200);
  });
});
