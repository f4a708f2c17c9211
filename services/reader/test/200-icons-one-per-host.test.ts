// GET /feeds/v2/icons.json: one icon per site host of the user's subscriptions, discovered from the
// site (rel=icon, then apple-touch-icon, else /favicon.ico when served), hosts without one left out,
// refreshed daily.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { enqueueIconRefreshes } from '../src/jobs/scheduler.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let ann: TestUser;
const sites: FeedServer[] = [];

async function site(head: string, favicon: boolean): Promise<FeedServer> {
  const s = await startFeedServer({ fixtures: false });
  s.set('/', {
    body: `<!doctype html><html><head>${head}</head><body></body></html>`,
    headers: { 'content-type': 'text/html' },
  });
  s.set('/feed.xml', { body: rssWithItems('Site', [{ guid: 'x', title: 'X' }]) });
  s.set('/other.xml', { body: rssWithItems('Other', [{ guid: 'y', title: 'Y' }]) });
  if (favicon)
    s.set('/favicon.ico', { body: Buffer.from([0, 0, 1, 0]), headers: { 'content-type': 'image/x-icon' } });
  sites.push(s);
  return s;
}

beforeAll(async () => {
  h = await startReader();
  ann = h.identity.addUser('ann');
});
afterAll(async () => {
  await h.stop();
  for (const s of sites) await s.close();
});

describe('icons', () => {
  test('one per host; rel=icon first, then apple-touch-icon, then a served /favicon.ico; none → left out', async () => {
    const a = await site(
      '<link rel="apple-touch-icon" href="/touch.png"><link rel="shortcut icon" href="/fav-32.png">',
      true,
    );
    const b = await site('', true);
    const c = await site('', false);
    const d = await site('<link rel="apple-touch-icon" href="/touch.png">', false);
    for (const s of [a, b, c, d]) await h.subscribe(ann, s.url('/feed.xml'));
    await h.subscribe(ann, a.url('/other.xml'));
    await h.idle();
    const icons = (await h.get(ann, '/feeds/v2/icons.json')).json();
    expect(icons).toHaveLength(3);
    expect(icons).toEqual(
      expect.arrayContaining([
        { host: a.host, url: a.url('/fav-32.png') },
        { host: b.host, url: b.url('/favicon.ico') },
        { host: d.host, url: d.url('/touch.png') },
      ]),
    );
  });

  test('another user sees only the hosts of their own subscriptions', async () => {
    const bob = h.identity.addUser('bob');
    expect((await h.get(bob, '/feeds/v2/icons.json')).json()).toEqual([]);
    await h.subscribe(bob, sites[1]!.url('/feed.xml'));
    expect((await h.get(bob, '/feeds/v2/icons.json')).json()).toEqual([
      { host: sites[1]!.host, url: sites[1]!.url('/favicon.ico') },
    ]);
  });

  test('refreshed once a day', async () => {
    const a = sites[0]!;
    a.set('/', {
      body: '<html><head><link rel="icon" href="/new.svg"></head></html>',
      headers: { 'content-type': 'text/html' },
    });
    await enqueueIconRefreshes(h.ctx);
    await h.idle();
    expect((await h.get(ann, '/feeds/v2/icons.json')).json()).toContainEqual({
      host: a.host,
      url: a.url('/fav-32.png'),
    });
    h.clock.advance(25 * 60 * 60_000);
    await enqueueIconRefreshes(h.ctx);
    await h.idle();
    expect((await h.get(ann, '/feeds/v2/icons.json')).json()).toContainEqual({
      host: a.host,
      url: a.url('/new.svg'),
    });
  });
});
