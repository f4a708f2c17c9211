// The Microsub flow with identity, publishing, feeds, microsub and the gateway each in its own process,
// requests and events over a real nats-server (JetStream), driven the way Monocle and Indigenous do:
// a token from Murmur's IndieAuth (authorization code with PKCE, Monocle's scopes `create update read
// follow channels`, all granted), form-encoded writes with `access_token`, follow → publish → unread
// badge → page → mark read with entry[N] → badge drops; search and preview; a feed on the open web
// (a local feed server) followed through the reader, its entries in the timeline; a channel created,
// renamed, ordered, followed into and deleted.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import {
  describeWithNats,
  freePort,
  startNatsServer,
  startSmtpCapture,
  type NatsServerHandle,
  type SmtpCapture,
} from '@murmur/testing';
import { startChild, waitReady, type ChildHandle } from '../support/processes.js';

const PUBLIC_URL = 'http://murmur.test';

async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newPost(base: string, username: string, token: string, title: string): Promise<string> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>
<param><value><string>0</string></value></param>
<param><value><string>${esc(username)}</string></value></param>
<param><value><string>${esc(token)}</string></value></param>
<param><value><struct><member><name>title</name><value><string>${esc(title)}</string></value></member>
<member><name>description</name><value><string>${esc(`<p>${title}</p>`)}</string></value></member></struct></value></param>
<param><value><boolean>1</boolean></value></param></params></methodCall>`;
  const res = await fetch(`${base}/xmlrpc`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('<fault>')) throw new Error(`newPost: ${res.status} ${text}`);
  return /<value>(?:<(?:string|int|i4)>)?(\d+)/.exec(text)![1]!;
}

function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"\\s*/?>`).exec(html);
  if (!match) throw new Error(`no hidden ${name} field in:\n${html.slice(0, 2000)}`);
  return match[1]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

const formBody = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/**
 * A token the way a Microsub client gets one: the IndieAuth screen, the emailed sign-in link, consent,
 * and redemption of the code with the PKCE verifier (docs/indieauth.md).
 */
async function indieAuthToken(
  gatewayUrl: string,
  smtp: SmtpCapture,
  email: string,
  scope: string,
): Promise<string> {
  const CLIENT_ID = 'http://127.0.0.1:9/monocle/';
  const REDIRECT_URI = 'http://127.0.0.1:9/monocle/callback';
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state: 'st',
    scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const screen = await (await fetch(`${gatewayUrl}/indieauth/auth?${query}`)).text();
  expect(
    (await fetch(`${gatewayUrl}/indieauth/signin`, formBody({ request: hidden(screen, 'request'), email })))
      .status,
  ).toBe(200);
  const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
  const link = new URL(mail.links.find((l) => l.includes('/account/signin/web'))!);
  const confirm = await fetch(`${gatewayUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
  const confirmHtml = await confirm.text();
  const confirmCookie = /murmur_signin=[^;]+/.exec(confirm.headers.get('set-cookie') ?? '')![0];
  const landed = await fetch(`${gatewayUrl}/account/signin/web`, {
    ...formBody({
      token: hidden(confirmHtml, 'token'),
      csrf: hidden(confirmHtml, 'csrf'),
      return_to: hidden(confirmHtml, 'return_to'),
    }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: confirmCookie },
    redirect: 'manual',
  });
  const cookie = /murmur_session=[^;]+/.exec(landed.headers.get('set-cookie') ?? '')![0];
  const consentHtml = await (
    await fetch(`${gatewayUrl}${landed.headers.get('location')!}`, { headers: { cookie } })
  ).text();
  const approved = await fetch(`${gatewayUrl}/indieauth/approve`, {
    ...formBody({ request: hidden(consentHtml, 'request'), csrf: hidden(consentHtml, 'csrf') }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    redirect: 'manual',
  });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const redeemed = await fetch(
    `${gatewayUrl}/indieauth/token`,
    formBody({
      grant_type: 'authorization_code',
      code,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  );
  expect(redeemed.status).toBe(200);
  const grant = (await redeemed.json()) as { access_token: string; scope: string };
  expect(grant.scope).toBe(scope);
  return grant.access_token;
}

describeWithNats('microsub, multi-process over NATS', () => {
  const children: ChildHandle[] = [];
  let nats: NatsServerHandle | undefined;
  let smtp: SmtpCapture | undefined;
  let dataDir = '';
  let gatewayUrl = '';
  const adminToken = randomBytes(32).toString('base64url');
  let feedServer: Server | undefined;
  let feedUrl = '';

  beforeAll(async () => {
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/feed+json' }).end(
        JSON.stringify({
          version: 'https://jsonfeed.org/version/1.1',
          title: 'Elsewhere',
          items: [
            {
              id: 'e1',
              url: 'https://elsewhere.test/e1',
              content_html: '<p>From elsewhere</p>',
              date_published: '2020-01-01T00:00:00Z',
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => feedServer!.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.json`;
    dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-microsub-'));
    nats = await startNatsServer();
    smtp = await startSmtpCapture();
    const common = { BUS_URL: nats.url, LOG_LEVEL: 'warn', PUBLIC_URL, HOST: '127.0.0.1' };
    const urls: Record<string, string> = {};
    const ready: Array<[ChildHandle, string]> = [];
    for (const name of ['identity', 'publishing', 'feeds', 'reader', 'microsub'] as const) {
      const port = await freePort();
      const child = startChild(name, `services/${name}/dist/main.js`, {
        ...common,
        [`${name.toUpperCase()}_PORT`]: String(port),
        STORE_URL: `file:${join(dataDir, `${name}-store`)}`,
        DATA_DIR: join(dataDir, `${name}-data`),
        MURMUR_ADMIN_TOKEN: adminToken,
        ...(name === 'identity' ? { MAIL_URL: smtp.url } : {}),
        // The reader fetches the test's feed server on 127.0.0.1.
        ...(name === 'reader' ? { OUTBOUND_ALLOW_PRIVATE: '1' } : {}),
      });
      children.push(child);
      urls[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
      ready.push([child, `http://127.0.0.1:${port}/readyz`]);
    }
    const [gatewayPort, internalPort] = [await freePort(), await freePort()];
    const gateway = startChild('gateway', 'gateway/dist/main.js', {
      ...common,
      PORT: String(gatewayPort),
      GATEWAY_INTERNAL_PORT: String(internalPort),
      ...urls,
    });
    children.push(gateway);
    for (const [child, url] of ready) await waitReady(child, url);
    await waitReady(gateway, `http://127.0.0.1:${internalPort}/readyz`);
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  }, 60_000);

  afterAll(async () => {
    for (const c of children.reverse()) await c.stop();
    await nats?.stop();
    await smtp?.stop();
    await new Promise((resolve) => feedServer?.close(resolve));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('200-microsub-flow: follow, publish, badge, page, mark read, search, preview, channels', async () => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const [ann, bob] = [`ann${suffix}`, `bob${suffix}`];
    const tokens: Record<string, string> = {};
    for (const username of [ann, bob]) {
      const res = await fetch(`${gatewayUrl}/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.test` }),
      });
      expect(res.status).toBe(201);
      tokens[username] = ((await res.json()) as { token: string }).token;
    }
    // ann's reader signs in through IndieAuth and asks for Monocle's scopes; bob publishes with his app token.
    tokens[ann] = await indieAuthToken(
      gatewayUrl,
      smtp!,
      `${ann}@example.test`,
      'create update read follow channels',
    );
    const form = (pairs: Record<string, string>) =>
      fetch(`${gatewayUrl}/microsub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...pairs, access_token: tokens[ann]! }).toString(),
      });
    const get = async (params: Record<string, string>) => {
      const res = await fetch(
        `${gatewayUrl}/microsub?${new URLSearchParams({ ...params, access_token: tokens[ann]! })}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      return (await res.json()) as any;
    };
    const badge = async () =>
      (await get({ action: 'channels' })).channels.find((c: any) => c.uid === 'default').unread as number;

    expect(await badge()).toBe(0);
    // Search and preview find bob once his user event has arrived.
    const found = await eventually(async () => {
      const r = (await get({ action: 'search', query: bob })).results;
      return r.length === 1 ? r : undefined;
    }, 'search');
    expect(found[0]).toMatchObject({ type: 'feed', name: bob });
    await eventually(
      async () => ((await form({ action: 'follow', url: found[0].url })).status === 200 ? true : undefined),
      'follow',
    );
    expect((await get({ action: 'follow' })).items.map((f: any) => f.url)).toEqual([found[0].url]);

    const ids: string[] = [];
    ids.push(
      await eventually(() => newPost(gatewayUrl, bob, tokens[bob]!, 'one').catch(() => undefined), 'post'),
    );
    for (const title of ['two', 'three']) ids.push(await newPost(gatewayUrl, bob, tokens[bob]!, title));
    await eventually(async () => ((await badge()) === 3 ? true : undefined), 'badge');

    const first = await get({ action: 'timeline', limit: '2' });
    expect(first.items.map((i: any) => i._id)).toEqual([ids[2], ids[1]]);
    expect(first.items[0]).toMatchObject({ type: 'entry', name: 'three', _is_read: false });
    expect(first.items[0].published).toMatch(/\+00:00$/);
    const second = await get({ action: 'timeline', limit: '2', before: first.paging.before });
    expect(second.items.map((i: any) => i._id)).toEqual([ids[0]]);
    expect(second.paging.before).toBeUndefined();

    const marked = await fetch(`${gatewayUrl}/microsub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `action=timeline&method=mark_read&entry%5B0%5D=${ids[2]}&entry%5B1%5D=${ids[1]}&access_token=${encodeURIComponent(tokens[ann]!)}`,
    });
    expect(marked.status).toBe(200);
    expect(await marked.json()).toEqual({});
    expect(await badge()).toBe(1);

    const preview = await get({ action: 'preview', username: bob });
    expect(preview.items.map((i: any) => i._id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(preview.items[0]).not.toHaveProperty('_is_read');

    // A feed on the open web, followed through the reader: its (old, so read) entry joins the timeline.
    // Status and body together, so a failure shows which service did not answer.
    const followed = await form({ action: 'follow', url: feedUrl });
    expect({ status: followed.status, body: await followed.text() }).toMatchObject({ status: 200 });
    const all = await get({ action: 'timeline' });
    expect(all.items.map((i: any) => i._id)).toEqual([
      ids[2],
      ids[1],
      ids[0],
      expect.stringMatching(/^w\d+$/),
    ]);
    expect(all.items[3]).toMatchObject({ url: 'https://elsewhere.test/e1', _is_read: true });
    expect((await get({ action: 'follow' })).items.map((f: any) => f.url)).toContain(feedUrl);

    // Channels as Monocle manages them: created, renamed, ordered (channels[]), followed into, deleted.
    const post = async (pairs: Array<[string, string]>) => {
      const res = await fetch(`${gatewayUrl}/microsub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([...pairs, ['access_token', tokens[ann]!]]).toString(),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const created = await post([
      ['action', 'channels'],
      ['name', 'Friends'],
    ]);
    expect(created).toMatchObject({ status: 200, body: { name: 'Friends' } });
    const uid = created.body.uid as string;
    expect(
      await post([
        ['action', 'channels'],
        ['channel', uid],
        ['name', 'Close friends'],
      ]),
    ).toEqual({ status: 200, body: { uid, name: 'Close friends' } });
    const ordered = await post([
      ['action', 'channels'],
      ['method', 'order'],
      ['channels[]', uid],
      ['channels[]', 'default'],
    ]);
    expect(ordered.status).toBe(200);
    // The two listed swap the places they held; the others stay.
    expect(ordered.body.channels.map((c: any) => c.uid)).toEqual([
      'notifications',
      uid,
      'bookmarks',
      'discover',
      'default',
    ]);
    expect(
      (
        await post([
          ['action', 'follow'],
          ['channel', uid],
          ['username', bob],
        ])
      ).status,
    ).toBe(200);
    const inChannel = await get({ action: 'timeline', channel: uid });
    expect(inChannel.items.map((i: any) => i._id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(
      await post([
        ['action', 'channels'],
        ['method', 'delete'],
        ['channel', uid],
      ]),
    ).toEqual({ status: 200, body: { deleted: true } });
    expect((await get({ action: 'channels' })).channels.map((c: any) => c.uid)).toEqual([
      'notifications',
      'bookmarks',
      'discover',
      'default',
    ]);
    expect((await get({ action: 'follow' })).items.map((f: any) => f.url)).toEqual([feedUrl]);
  }, 60_000);
});
