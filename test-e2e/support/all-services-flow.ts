// The flow across every service, through the gateway, that the multi-process runs pass (on the embedded
// store: test-e2e/test/all-services-multi-process-nats.test.ts; in the shape docker-compose.yml describes, on
// a MongoDB-wire store: test-e2e/test/all-services-deployed-shape-mongodb.test.ts): ada signs in by email
// (identity, mail) → registers her phone (push) → follows bob (feeds) → bob publishes mentioning her
// (publishing) → the post is in her timeline (feeds) and her phone is notified (push → an APNs stand-in over
// HTTP/2 TLS, trusted through NODE_EXTRA_CA_CERTS) → a site on the web replies to bob's post with a
// webmention, which is verified (webmention) and shows in bob's webmentions feed (feeds) → ada reads bob's
// post through Microsub (microsub) and subscribes to a feed in the Feedbin API (reader) → she imports her old
// blog into her site's archive and finds it there (archive).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { startSmtpCapture, type SmtpCapture } from '@murmur/testing';
import { makeTestKey, startApnsStandIn, type ApnsStandIn } from '../../services/push/test/apns-stand-in.js';
import { startSourceServer, type SourceServer } from '../../services/webmention/test/sources.js';
import type { Cluster, PartName } from './cluster.js';
import { eventually, newPostId, xmlrpc } from './client.js';

const KEY_ID = 'KEY1234567';
const ADA_PHONE = 'ab'.repeat(32);

/** The outside world the flow needs: a mail server, an APNs stand-in, a web site. */
export interface StandIns {
  smtp: SmtpCapture;
  apns: ApnsStandIn;
  web: SourceServer;
  key: ReturnType<typeof makeTestKey>;
  /** Each part's variables pointing at them. */
  env: Partial<Record<PartName, Record<string, string>>>;
  close(): Promise<void>;
}

export async function startStandIns(): Promise<StandIns> {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-e2e-all-'));
  const key = makeTestKey();
  const smtp = await startSmtpCapture();
  const apns = await startApnsStandIn({ [KEY_ID]: key.publicKey });
  const web = await startSourceServer();
  const caFile = join(dir, 'apns-stand-in.pem');
  writeFileSync(caFile, apns.ca);
  // The local web server stands in for the internet: only its name may be a private address.
  const web127 = { OUTBOUND_ALLOW_HOSTS: 'localhost' };
  return {
    smtp,
    apns,
    web,
    key,
    env: {
      identity: { MAIL_URL: smtp.url },
      webmention: web127,
      reader: web127,
      push: {
        PUSH_APNS_PRODUCTION_URL: apns.url,
        PUSH_APNS_SANDBOX_URL: apns.url,
        NODE_EXTRA_CA_CERTS: caFile,
      },
    },
    async close() {
      await apns.close();
      await web.close();
      await smtp.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function runAllServicesFlow(
  cluster: Cluster,
  { smtp, apns, web, key }: StandIns,
): Promise<void> {
  const gatewayUrl = cluster.gatewayUrl;
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(gatewayUrl + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  };

  const admin = cluster.adminToken;

  // identity: the operator creates the accounts; ada signs in by email and gets an app token.
  const accounts: Record<string, { id: number; token: string }> = {};
  for (const username of ['ada', 'bob']) {
    const res = await call('POST', '/admin/users', admin, { username, email: `${username}@example.test` });
    expect(res.status).toBe(201);
    accounts[username] = res.json;
  }
  const bob = accounts.bob!;
  expect((await call('POST', '/account/signin', undefined, { email: 'ada@example.test' })).status).toBe(200);
  const mail = await smtp.waitFor((m) => m.to.includes('ada@example.test'), 15_000);
  const emailed = new URL(mail.links.find((l) => l.includes('token='))!).searchParams.get('token')!;
  const verified = await call('POST', '/account/verify', undefined, { token: emailed });
  expect(verified.status).toBe(200);
  const ada: string = verified.json.token;

  // push: the operator registers the app's APNs key; ada registers her phone.
  expect(
    (
      await call('PUT', '/admin/push/apps/Murmur', admin, {
        team_id: 'TEAM123456',
        key_id: KEY_ID,
        key: key.pem,
        topic: 'org.murmur.app',
        default: true,
      })
    ).status,
  ).toBe(201);
  expect(
    (await call('POST', `/users/push/register?device_token=${ADA_PHONE}&push_env=prod`, ada)).status,
  ).toBe(201);

  // microsub: ada's reader app connects first; what arrives after that is unread (posts from before a
  // user's first Microsub use count as read: docs/api/microsub.md).
  expect((await call('GET', '/microsub?action=channels', ada)).status).toBe(200);

  // feeds: ada follows bob.
  await eventually(
    async () =>
      (await call('POST', '/users/follow', ada, { username: 'bob' })).status === 200 ? true : undefined,
    'follow',
    20_000,
  );

  // publishing: bob posts (his default site comes from identity's user.created event).
  const answer = await eventually(
    async () =>
      xmlrpc(cluster.gatewayUrl, 'metaWeblog.newPost', [
        '0',
        'bob',
        bob.token,
        { title: 'Hello', description: 'Hello from bob, @ada!' },
        true,
      ]).catch(() => undefined),
    'newPost',
    20_000,
  );
  const postId = newPostId(answer);
  const got = await xmlrpc(cluster.gatewayUrl, 'metaWeblog.getPost', [postId, 'bob', bob.token]);
  const permalink = /<name>(?:permaLink|link)<\/name><value>(?:<string>)?([^<]+)/.exec(got)![1]!;
  expect(permalink).toMatch(/^http:\/\/murmur\.test\/sites\/bob\//);

  // feeds: the post is in ada's timeline and her mentions.
  await eventually(
    async () => {
      const feed = (await call('GET', '/feeds/ada.json')).json;
      return feed?.items?.some((i: { id: string }) => i.id === postId) ? true : undefined;
    },
    'timeline',
    20_000,
  );
  await eventually(
    async () =>
      (await call('GET', '/feeds/ada/mentions.json')).json?.items?.length === 1 ? true : undefined,
    'mentions',
    20_000,
  );

  // push: ada's phone got "@bob mentioned you" from the APNs stand-in.
  await eventually(
    async () => (apns.requests.some((r) => r.token === ADA_PHONE) ? true : undefined),
    'push',
    20_000,
  );
  expect(apns.requests.find((r) => r.token === ADA_PHONE)!.payload.aps.alert).toBe(
    '@bob mentioned you: Hello from bob, @ada!',
  );

  // webmention: a page on the web replies to bob's post; it is verified and shows in both places.
  web.html(
    'localhost',
    '/reply',
    `<article class="h-entry"><a class="u-in-reply-to" href="${permalink}">re</a>` +
      `<span class="p-author h-card">Carol</span><div class="e-content">Nice post!</div></article>`,
  );
  const source = web.url('localhost', '/reply');
  const sent = await fetch(`${cluster.gatewayUrl}/webmention`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ source, target: permalink }).toString(),
  });
  expect(sent.status).toBe(202);
  await eventually(
    async () => {
      const res = await call('GET', `/webmention?target=${encodeURIComponent(permalink)}`);
      return res.json?.items?.length === 1 ? res.json : undefined;
    },
    'webmention verified',
    30_000,
  );
  await eventually(
    async () =>
      (await call('GET', '/feeds/bob/webmentions.json')).json?.items?.length === 1 ? true : undefined,
    'webmentions feed',
    20_000,
  );

  // microsub: ada reads bob's post in her default channel (her app token has every scope).
  const timeline = await eventually(
    async () => {
      const res = await call('GET', '/microsub?action=timeline&channel=default', ada);
      return res.status === 200 && res.text.includes('Hello from bob') ? res.json : undefined;
    },
    'microsub timeline',
    20_000,
  );
  expect(timeline.items[0]).toMatchObject({ type: 'entry', _is_read: false });

  // reader: ada subscribes to a feed on the web in the Feedbin API and reads its entry.
  web.set('localhost', '/feed.xml', {
    headers: { 'content-type': 'application/rss+xml' },
    body:
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Carol</title><link>http://localhost/</link>' +
      '<item><title>First</title><guid>c1</guid><link>http://localhost/c1</link><description>Hi</description></item>' +
      '</channel></rss>',
  });
  const subscribed = await call('POST', '/feeds/v2/subscriptions.json', ada, {
    feed_url: web.url('localhost', '/feed.xml'),
  });
  expect(subscribed.status).toBe(200);
  await eventually(
    async () => {
      const entries = await call('GET', '/feeds/v2/entries.json', ada);
      return entries.json?.map((e: { title: string }) => e.title).join() === 'First' ? true : undefined;
    },
    'reader entries',
    20_000,
  );

  // archive: ada imports her old blog into her site and finds it there.
  const { sites } = (await call('GET', '/admin/sites?username=ada', admin)).json;
  const siteId: number = sites[0].id;
  const oldBlog = {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Old blog',
    items: [
      {
        id: 'o1',
        content_html: '<p>From 2019, about café life</p>',
        date_published: '2019-05-01T10:00:00Z',
      },
      { id: 'o2', content_text: 'From 2020', date_published: '2020-06-01T10:00:00Z' },
    ],
  };
  const started = await call('POST', `/imported/archive/${siteId}/import`, ada, oldBlog);
  expect(started.status).toBe(202);
  const done = await eventually(
    async () => {
      const res = await call('GET', `/imported/archive/${siteId}/import/${started.json.id}`, ada);
      return ['complete', 'failed'].includes(res.json?.status) ? res.json : undefined;
    },
    'import',
    30_000,
  );
  expect(done).toMatchObject({ status: 'complete', imported: 2 });
  expect((await call('GET', `/imported/archive/${siteId}/years.json`)).json).toEqual([2019, 2020]);
  const found = (await call('GET', `/imported/archive/${siteId}/search.json?q=Cafe`)).json;
  expect(found.items.map((i: { id: string }) => i.id)).toEqual(['o1']);
}
