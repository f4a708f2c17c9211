// GET /webmention?target=…: JSON Feed 1.1 "Conversation" by default (string ids, authors), JF2 with
// wm-* members, microformats2 (alias mf2); the http twin of an https target gives the same mentions;
// CORS `*`, public caching, ETag with 304; pages of `per-page` from `page` 0.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADA_POST, hEntry, startHarness, withSites, type Harness } from './harness.js';
import { jsonFeedErrors } from './jsonfeed.js';

describe('GET /webmention', () => {
  let h: Harness;
  const q = (target: string, extra = '') => `/webmention?target=${encodeURIComponent(target)}${extra}`;
  const sources: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ gateway: true });
    await withSites(h);
    const pages: Array<[string, string]> = [
      [
        '/1',
        hEntry(
          `<a class="u-like-of" href="${ADA_POST}">like</a><span class="p-author h-card">Dave</span><time class="dt-published" datetime="2026-11-21T09:00:00Z">x</time>`,
        ),
      ],
      [
        '/2',
        hEntry(
          `<a class="u-in-reply-to" href="${ADA_POST}">re</a><span class="p-author h-card"><a class="p-name u-url" href="https://carol.example/">Carol</a><img class="u-photo" src="https://carol.example/c.jpg" alt=""></span><time class="dt-published" datetime="2026-11-21T08:30:00Z">x</time><div class="e-content"><p>Nice!</p></div>`,
        ),
      ],
      [
        '/3',
        hEntry(
          `<a href="${ADA_POST}">mention</a><time class="dt-published" datetime="2026-11-21T10:00:00Z">x</time><p class="e-content">Also</p>`,
        ),
      ],
    ];
    for (const [path, html] of pages) {
      h.sources.html('carol.example', path, html);
      const source = h.sources.url('carol.example', path);
      sources.push(source);
      await h.send(source, ADA_POST);
    }
    for (const source of sources) await h.waitForStatus(source, ADA_POST, ['verified']);
  });
  afterAll(() => h.stop());

  it('GET without target → 400 {"error"}; an invalid target → 400; format=atom → 400', async () => {
    for (const path of [
      '/webmention',
      '/webmention?target=notaurl',
      q(ADA_POST, '&format=atom'),
      q(ADA_POST, '&per-page=0'),
    ]) {
      const res = await h.request('GET', path);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.json() as object)).toEqual(['error']);
    }
    expect((await h.request('GET', '/webmention')).json()).toEqual({ error: 'target is required' });
  });

  it('the default is JSON Feed 1.1 titled "Conversation" with string ids, authors, conversation order', async () => {
    const res = await h.request('GET', q(ADA_POST));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const feed = res.json() as any;
    expect(jsonFeedErrors(feed)).toEqual([]);
    expect(feed.title).toBe('Conversation');
    expect(feed.home_page_url).toBe(ADA_POST);
    expect(feed.feed_url).toBe(
      `${h.publicUrl}/webmention?target=${encodeURIComponent(ADA_POST)}&format=jsonfeed`,
    );
    expect(feed.items.map((i: any) => i._service.type)).toEqual(['reply', 'like', 'mention']);
    const reply = feed.items[0];
    expect(typeof reply.id).toBe('string');
    expect(reply).toMatchObject({
      url: sources[1],
      content_html: '<p>Nice!</p>',
      content_text: 'Nice!',
      date_published: '2026-11-21T08:30:00+00:00',
      authors: [{ name: 'Carol', url: 'https://carol.example/', avatar: 'https://carol.example/c.jpg' }],
      author: { name: 'Carol', url: 'https://carol.example/', avatar: 'https://carol.example/c.jpg' },
    });
    const like = feed.items[1];
    expect(like.content_html).toBe('');
    expect(like.authors).toEqual([{ name: 'Dave' }]);
  });

  it('format=jf2 gives a feed of entries with wm-property, an integer wm-id and the matching key', async () => {
    const res = await h.request('GET', q(ADA_POST, '&format=jf2'));
    const jf2 = res.json() as any;
    expect(jf2.type).toBe('feed');
    expect(jf2.name).toBe('Conversation');
    const [reply, like, mention] = jf2.children;
    expect(reply).toMatchObject({
      type: 'entry',
      author: {
        type: 'card',
        name: 'Carol',
        url: 'https://carol.example/',
        photo: 'https://carol.example/c.jpg',
      },
      url: sources[1],
      published: '2026-11-21T08:30:00+00:00',
      content: { html: '<p>Nice!</p>', text: 'Nice!' },
      'wm-property': 'in-reply-to',
      'wm-source': sources[1],
      'wm-target': ADA_POST,
      'in-reply-to': ADA_POST,
    });
    expect(Number.isInteger(reply['wm-id'])).toBe(true);
    expect(reply['wm-received']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(like['wm-property']).toBe('like-of');
    expect(like['like-of']).toBe(ADA_POST);
    expect(like.content).toBeUndefined();
    expect(mention['mention-of']).toBe(ADA_POST);
  });

  it('format=mf2 equals format=microformats; every property value is an array', async () => {
    const a = (await h.request('GET', q(ADA_POST, '&format=mf2'))).json() as any;
    const b = (await h.request('GET', q(ADA_POST, '&format=microformats'))).json() as any;
    expect(a).toEqual(b);
    expect(a.rels).toEqual({});
    expect(a['rel-urls']).toEqual({});
    const reply = a.items[0];
    expect(reply.type).toEqual(['h-entry']);
    for (const value of Object.values(reply.properties)) expect(Array.isArray(value)).toBe(true);
    expect(reply.properties['in-reply-to']).toEqual([ADA_POST]);
    expect(reply.properties.content).toEqual([{ html: '<p>Nice!</p>', value: 'Nice!' }]);
    expect(reply.properties.author[0]).toEqual({
      type: ['h-card'],
      properties: {
        name: ['Carol'],
        url: ['https://carol.example/'],
        photo: ['https://carol.example/c.jpg'],
      },
      value: 'Carol',
    });
  });

  it('a target with no mentions → 200 with empty items / children', async () => {
    const none = 'https://ada.example/nothing-here';
    expect(((await h.request('GET', q(none))).json() as any).items).toEqual([]);
    expect(((await h.request('GET', q(none, '&format=jf2'))).json() as any).children).toEqual([]);
    expect(((await h.request('GET', q(none, '&format=mf2'))).json() as any).items).toEqual([]);
  });

  it('the http twin of an https target (and a #fragment) returns the same mentions', async () => {
    const https = (await h.request('GET', q(ADA_POST))).json() as any;
    const http = (await h.request('GET', q(ADA_POST.replace('https:', 'http:') + '#c'))).json() as any;
    expect(http.items.map((i: any) => i.id)).toEqual(https.items.map((i: any) => i.id));
    expect(http.home_page_url).toBe(ADA_POST.replace('https:', 'http:'));
  });

  it('ETag: a matching If-None-Match → 304; a new mention changes it', async () => {
    const first = await h.request('GET', q(ADA_POST));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await h.request('GET', q(ADA_POST), { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const jf2 = await h.request('GET', q(ADA_POST, '&format=jf2'));
    expect(jf2.headers.etag).not.toBe(etag);

    h.sources.html('carol.example', '/4', hEntry(`<a href="${ADA_POST}">four</a>`));
    const source = h.sources.url('carol.example', '/4');
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['verified']);
    const changed = await h.request('GET', q(ADA_POST), { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('paging: per-page and page (from 0) as webmention.io offers them, with next_url', async () => {
    const all = ((await h.request('GET', q(ADA_POST))).json() as any).items.map((i: any) => i.id);
    expect(all).toHaveLength(4);
    const p0 = (await h.request('GET', q(ADA_POST, '&per-page=3&page=0'))).json() as any;
    const p1 = (await h.request('GET', q(ADA_POST, '&per-page=3&page=1'))).json() as any;
    expect(p0.items.map((i: any) => i.id)).toEqual(all.slice(0, 3));
    expect(p1.items.map((i: any) => i.id)).toEqual(all.slice(3));
    expect(p0.next_url).toBe(
      `${h.publicUrl}/webmention?target=${encodeURIComponent(ADA_POST)}&format=jsonfeed&per-page=3&page=1`,
    );
    expect(p1.next_url).toBeUndefined();
    expect(jsonFeedErrors(p0)).toEqual([]);
    const jf2 = (await h.request('GET', q(ADA_POST, '&format=jf2&per-page=2&page=1'))).json() as any;
    expect(jf2.children.map((c: any) => String(c['wm-id']))).toEqual(all.slice(2, 4));
  });

  it('errors are readable cross-origin too', async () => {
    const res = await h.request('GET', '/webmention');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
