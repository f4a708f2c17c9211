// Discovery: each site's feed.xml (atom:link rel="hub" and rel="self") and feed.json (`hubs`), and
// every public JSON Feed of the feeds service (`hubs`) name the hub, and each answers with
// `Link: <hub>; rel="hub", <topic>; rel="self"` — what a subscriber such as websub.rocks discovers.
// With WEBSUB_HUB_URL=none nothing is advertised.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

describe('with the default hub URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.createUser('ada');
  }, 120_000);
  afterAll(() => h?.stop());

  it('feed.xml names the hub in the document and in the Link header', async () => {
    const res = await h.get('/sites/ada/feed.xml');
    expect(res.statusCode).toBe(200);
    const self = `${h.url}/sites/ada/feed.xml`;
    expect(res.headers.link).toBe(`<${h.hubUrl}>; rel="hub", <${self}>; rel="self"`);
    expect(res.body).toContain(`<atom:link href="${h.hubUrl}" rel="hub"/>`);
    expect(res.body).toContain(`<atom:link href="${self}" rel="self" type="application/rss+xml"/>`);
  });

  it.each([
    '/sites/ada/feed.json',
    '/feeds/ada.json',
    '/feeds/ada/mentions.json',
    '/feeds/ada/webmentions.json',
    '/feeds/photos.json',
    '/blogroll.org.json',
  ])('%s names the hub in `hubs` and the Link header', async (path) => {
    const res = await h.get(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBe(`<${h.hubUrl}>; rel="hub", <${h.url}${path}>; rel="self"`);
    expect((res.json() as { hubs: unknown }).hubs).toEqual([{ type: 'WebSub', url: h.hubUrl }]);
  });

  it('every advertised feed is a topic the hub accepts', async () => {
    for (const path of [
      '/sites/ada/feed.xml',
      '/sites/ada/feed.json',
      '/feeds/ada.json',
      '/feeds/photos.json',
    ]) {
      await h.subscribe(`${h.url}${path}`, `/cb/adv${path}`);
    }
  }, 120_000);
});

describe('with WEBSUB_HUB_URL=none', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sharedEnv: { WEBSUB_HUB_URL: 'none' } });
    await h.createUser('ada');
  }, 120_000);
  afterAll(() => h?.stop());

  it('no feed names a hub', async () => {
    for (const path of ['/sites/ada/feed.xml', '/sites/ada/feed.json', '/feeds/ada.json']) {
      const res = await h.get(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers.link).toBeUndefined();
      expect(res.body).not.toContain('hub');
    }
  });
});
