// Every new account gets a default site (from identity's user.created event) and publishing announces it
// with evt.publishing.site.created. The operator can give a site its own host: its pages are then served
// for requests to that host and its URLs use it. Absolute URLs never come from the request's Host header.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { publishing, type EventEnvelope } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import { ADMIN_TOKEN, startHarness, type Account, type Harness } from './harness.js';
import { eventually } from '@murmur/testing';
import { send } from './http.js';

let h: Harness;
let ada: Account;
const created: EventEnvelope<{ site: publishing.Site }>[] = [];
const updated: EventEnvelope<{ site: publishing.Site }>[] = [];
const subs: Subscription[] = [];

beforeAll(async () => {
  // Publishing itself, no gateway: the gateway sends every request with the public host.
  h = await startHarness({ gateway: false });
  subs.push(
    await h.bus.subscribe(
      publishing.siteCreated,
      { durable: 'test-site-created' },
      async (e) => void created.push(e),
    ),
  );
  subs.push(
    await h.bus.subscribe(
      publishing.siteUpdated,
      { durable: 'test-site-updated' },
      async (e) => void updated.push(e),
    ),
  );
  ada = await h.createUser('ada', { name: 'Ada' });
});
afterAll(async () => {
  for (const s of subs) await s.unsubscribe();
  await h.stop();
});

const admin = (method: string, path: string, body?: unknown) =>
  send(h.publishingUrl, {
    method,
    path,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe('default site', () => {
  it('is created for a new account and announced once', async () => {
    const site = await h.siteOf(ada.id);
    const event = await eventually(async () => created.find((e) => e.data.site.userId === ada.id));
    expect(event.data.site).toEqual({
      id: site._id,
      userId: ada.id,
      username: 'ada',
      host: 'murmur.test',
      url: 'http://murmur.test/sites/ada/',
      isDefault: true,
      createdAt: expect.stringMatching(/\+00:00$/),
      title: 'Ada',
      revision: 1,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(created.filter((e) => e.data.site.userId === ada.id)).toHaveLength(1);
  });
});

describe('custom host', () => {
  it('serves the site on its host, with URLs on that host', async () => {
    const site = await h.siteOf(ada.id);
    expect(
      (await send(h.publishingUrl, { method: 'PATCH', path: `/admin/sites/${site._id}` })).statusCode,
    ).toBe(401);
    const res = await admin('PATCH', `/admin/sites/${site._id}`, { host: 'Blog.Example' });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      id: site._id,
      host: 'blog.example',
      url: 'http://blog.example/',
    });
    await eventually(async () => updated.find((e) => e.data.site.id === site._id));

    const post = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'On my domain', description: 'hi' },
    ]);
    const got = await h.call('metaWeblog.getPost', [post.value as number, 'ada', ada.token]);
    expect(got.value.permalink).toMatch(/^http:\/\/blog\.example\/\d{4}\/\d{2}\/\d{2}\/on-my-domain\.html$/);

    const home = await send(h.publishingUrl, { path: '/', headers: { host: 'blog.example' } });
    expect(home.statusCode).toBe(200);
    expect(home.text).toContain('class="h-feed"');
    expect(home.text).toContain(`href="${got.value.permalink}"`);
    const entry = await send(h.publishingUrl, {
      path: new URL(got.value.permalink).pathname,
      headers: { host: 'blog.example' },
    });
    expect(entry.statusCode).toBe(200);
    const feed = await send(h.publishingUrl, { path: '/feed.json', headers: { host: 'blog.example' } });
    expect(JSON.parse(feed.text).home_page_url).toBe('http://blog.example/');
    // Still reachable by path on the public host.
    expect((await send(h.publishingUrl, { path: '/sites/ada/' })).statusCode).toBe(200);
  });

  it('publishing.site.at names the site a URL belongs to (for webmention targets)', async () => {
    const site = await h.siteOf(ada.id);
    const at = async (url: string) => (await h.bus.request(publishing.siteAt, { url })).site;
    // After the custom-host test above: ada's site is on blog.example, and still under /sites/ada/.
    expect(await at('http://blog.example/2026/11/20/x.html')).toMatchObject({ id: site._id, userId: ada.id });
    expect(await at('http://murmur.test/sites/ada/about/')).toMatchObject({ id: site._id });
    expect(await at('http://murmur.test/sites/nobody/x.html')).toBeNull();
    expect(await at('http://murmur.test/sites/%zz/x.html')).toBeNull();
    expect(await at('http://other.example/sites/ada/')).toBeNull();
    expect(await at('not a url')).toBeNull();
  });

  it('unknown hosts get 404; a forged Host never shows up in generated URLs', async () => {
    expect((await send(h.publishingUrl, { path: '/', headers: { host: 'other.example' } })).statusCode).toBe(
      404,
    );
    const redirect = await send(h.publishingUrl, {
      path: '/sites/ada',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(redirect.headers.location).toBe('http://murmur.test/sites/ada/');
    const blogs = await h.call('blogger.getUsersBlogs', ['k', 'ada', ada.token]);
    expect(JSON.stringify(blogs.value)).not.toContain('evil');
  });

  it('refuses a bad host, and a host another site has', async () => {
    const site = await h.siteOf(ada.id);
    const bob = await h.createUser('bob');
    const bobSite = await h.siteOf(bob.id);
    expect((await admin('PATCH', `/admin/sites/${site._id}`, { host: 'not a host' })).statusCode).toBe(400);
    expect((await admin('PATCH', `/admin/sites/${bobSite._id}`, { host: 'blog.example' })).statusCode).toBe(
      409,
    );
    expect((await admin('PATCH', '/admin/sites/99999', { host: 'x.example' })).statusCode).toBe(404);
    const list = await admin('GET', '/admin/sites?username=ada');
    expect(JSON.parse(list.text).sites).toHaveLength(1);
  });
});
