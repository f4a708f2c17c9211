// Beyond the reference: a URL that is not one of our users but a feed on the open web (or a page that
// links one) is followed through the reader's discovery and fetching; its entries appear in `default`
// between the users' posts, with read state and cursors like posts; a URL that is neither → 404.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, idsOf, startHarness, T0, type Harness } from './harness.js';

let h: Harness;
let server: Server;
let port = 0;

const rfc822 = (seconds: number) => new Date(T0 + seconds * 1000).toUTCString();

const RSS = () => `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Dana's blog</title><link>http://blog.example:${port}/</link>
${[1, 2, 3]
  .map(
    (n) => `<item><title>Dana ${n}</title><link>http://blog.example:${port}/${n}</link>
<guid>http://blog.example:${port}/${n}</guid><pubDate>${rfc822(n * 100 + 50)}</pubDate>
<description>&lt;p&gt;Entry ${n}&lt;/p&gt;</description></item>`,
  )
  .join('\n')}
</channel></rss>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS());
    } else if (req.url === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>Dana</body></html>`,
        );
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>no feed here</body></html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  h = await startHarness();
  expect((await h.post({ action: 'follow', username: 'bob' }, h.ann.token)).statusCode).toBe(200);
  // bob's posts at 100, 200, 300, 400 s after ann's first use; Dana's entries at 150, 250, 350 s.
  for (const n of [1, 2, 3, 4]) await h.publish({ id: n, userId: h.bob.id, publishedAt: at(n * 100) });
});

afterAll(async () => {
  await h.stop();
  await new Promise((resolve) => server.close(resolve));
});

it('follows a page that links a feed, lists it, and merges its entries into default', async () => {
  const res = await h.post({ action: 'follow', url: `http://blog.example:${port}/` }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
  const follows = ((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items;
  expect(follows).toContainEqual({
    type: 'feed',
    url: `http://blog.example:${port}/feed.xml`,
    name: "Dana's blog",
  });
  const page = await h.get({ action: 'timeline' }, h.ann.token);
  const ids = idsOf(page);
  expect(ids).toHaveLength(7);
  expect(ids.filter((id) => id.startsWith('w'))).toHaveLength(3);
  expect(ids.filter((id) => !id.startsWith('w'))).toEqual(['4', '3', '2', '1']);
  const items = (page.json() as any).items;
  expect(items.map((i: any) => i.published)).toEqual([400, 350, 300, 250, 200, 150, 100].map((s) => at(s)));
  expect(items[1]).toMatchObject({
    type: 'entry',
    name: 'Dana 3',
    url: `http://blog.example:${port}/3`,
    content: { html: expect.stringContaining('Entry 3') },
    author: { type: 'card', name: expect.any(String) },
    _is_read: false,
  });
});

it('pages across posts and entries without skipping or repeating, and counts entries as unread', async () => {
  const seen: string[] = [];
  let before: string | undefined;
  do {
    const res = await h.get({ action: 'timeline', limit: '2', ...(before ? { before } : {}) }, h.ann.token);
    seen.push(...idsOf(res));
    before = (res.json() as any).paging.before;
  } while (before);
  expect(seen).toHaveLength(7);
  expect(new Set(seen).size).toBe(7);
  const unread = async () =>
    ((await h.get({ action: 'channels' }, h.ann.token)).json() as any).channels.find(
      (c: any) => c.uid === 'default',
    ).unread;
  expect(await unread()).toBe(7);
  const webIds = seen.filter((id) => id.startsWith('w'));
  await h.post(
    [
      ['action', 'timeline'],
      ['method', 'mark_read'],
      ['entry[]', webIds[0]!],
      ['entry[]', '4'],
    ],
    h.ann.token,
  );
  expect(await unread()).toBe(5);
  await h.post({ action: 'timeline', method: 'mark_read', last_read_entry: webIds[1]! }, h.ann.token);
  // Read through Dana 2 (250 s): left unread are bob's 300 only.
  expect(idsOf(await h.get({ action: 'timeline', is_read: 'false' }, h.ann.token))).toEqual(['3']);
});

it('answers 404 for a URL that is neither a user nor a feed', async () => {
  const res = await h.post({ action: 'follow', url: `http://plain.example:${port}/about` }, h.ann.token);
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ error: 'not_found' });
});

it('unfollows the feed by its site URL: its entries leave the timeline', async () => {
  const res = await h.post({ action: 'unfollow', url: `http://blog.example:${port}/` }, h.ann.token);
  expect(res.statusCode).toBe(200);
  expect(idsOf(await h.get({ action: 'timeline' }, h.ann.token))).toEqual(['4', '3', '2', '1']);
  const follows = ((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items;
  expect(follows.map((f: any) => f.name)).toEqual(['Bob']);
});
