// Each published post is on the web: a permalink page marked up as h-entry, the site's home page as an
// h-feed, a JSON Feed 1.1 that passes the schema, RSS, and the RSD document the pages point editors to.
// Drafts and scheduled posts appear nowhere. Post bodies are sanitised when stored.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mf2 } from 'microformats-parser';
import { startHarness, type Account, type Harness } from './harness.js';
import { jsonFeedErrors } from './jsonfeed.js';

let h: Harness;
let ada: Account;
let longId: number;
let shortId: number;
let permalink: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada Lovelace' });
  const long = await h.call('metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    {
      title: 'A <Longer> Post',
      description:
        '<p onclick="x()" style="color:red">Look: <img src="media/cat.png" alt="cat"> <a href="javascript:alert(1)">bad</a> <a href="/about/">about</a></p><script>alert(1)</script>',
      categories: ['Notes'],
      dateCreated: new Date(Date.now() - 60_000),
    },
  ]);
  longId = long.value as number;
  const short = await h.call('metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    { description: 'Just a short note.' },
  ]);
  shortId = short.value as number;
  await h.call('metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    { title: 'Hidden draft', description: 'secret', post_status: 'draft' },
  ]);
  await h.call('metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    { title: 'Future', description: 'later', dateCreated: new Date(Date.now() + 86_400_000) },
  ]);
  permalink = (await h.call('metaWeblog.getPost', [longId, 'ada', ada.token])).value.permalink;
});
afterAll(() => h.stop());

describe('stored HTML', () => {
  it('is sanitised: no script, handlers, style or javascript: URLs; relative URLs made absolute; links get rel', async () => {
    const post = (await h.call('metaWeblog.getPost', [longId, 'ada', ada.token])).value;
    const body: string = post.description;
    expect(body).not.toMatch(/<script|onclick|style=|javascript:/i);
    expect(body).toContain(`<img src="${h.url}/sites/ada/media/cat.png" alt="cat" />`);
    expect(body).toContain(`<a href="${h.url}/about/" rel="nofollow noopener noreferrer">about</a>`);
  });
});

describe('permalink page', () => {
  it('is an h-entry with name, content, url, published, author and category', async () => {
    const res = await h.get(new URL(permalink).pathname);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const parsed = mf2(res.text, { baseUrl: permalink });
    const entry = parsed.items.find((i) => i.type?.includes('h-entry'))!;
    expect(entry).toBeDefined();
    expect(entry.properties.name).toEqual(['A <Longer> Post']);
    expect(entry.properties.url).toEqual([permalink]);
    expect(entry.properties.published![0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect((entry.properties.content![0] as any).html).toContain('Look:');
    expect(entry.properties.category).toEqual(['Notes']);
    expect((entry.properties.author![0] as any).properties.name).toEqual(['Ada Lovelace']);
    expect(parsed.rels.EditURI ?? parsed.rels.edituri).toEqual([`${h.url}/sites/ada/rsd.xml`]);
    // Webmention senders find the endpoint in the Link header or in the page (docs/api/webmention.md).
    expect(parsed.rels.webmention).toEqual([`${h.url}/webmention`]);
    expect(parsed.rels.microsub).toEqual([`${h.url}/microsub`]);
    expect(parsed.rels.micropub).toEqual([`${h.url}/micropub`]);
    expect(res.headers.link).toBe(
      `<${h.url}/webmention>; rel="webmention", <${h.url}/micropub>; rel="micropub"`,
    );
  });

  it('is 404 for drafts, scheduled posts and unknown paths', async () => {
    expect((await h.get('/sites/ada/2020/01/01/nothing.html')).statusCode).toBe(404);
    expect((await h.get('/sites/nobody/')).statusCode).toBe(404);
    expect((await h.get('/sites/ada/no/such/thing')).statusCode).toBe(404);
  });
});

describe('home page', () => {
  it('is an h-feed of the published posts only, newest first', async () => {
    const res = await h.get('/sites/ada/');
    expect(res.statusCode).toBe(200);
    const parsed = mf2(res.text, { baseUrl: `${h.url}/sites/ada/` });
    const feed = parsed.items.find((i) => i.type?.includes('h-feed'))!;
    expect(feed.properties.name).toEqual(['Ada Lovelace']);
    const entries = feed.children!.filter((c) => c.type?.includes('h-entry'));
    expect(entries.map((e) => (e.properties.content![0] as any).value.trim())).toEqual([
      'Just a short note.',
      expect.stringContaining('Look:'),
    ]);
    expect(res.text).not.toContain('Hidden draft');
    expect(res.text).not.toContain('Future');
  });

  it('/sites/ada redirects to /sites/ada/', async () => {
    const res = await h.get('/sites/ada');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${h.url}/sites/ada/`);
  });
});

describe('feeds and RSD', () => {
  it('JSON Feed 1.1 passes the schema and lists published posts with string ids', async () => {
    const res = await h.get('/sites/ada/feed.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const feed = JSON.parse(res.text);
    expect(jsonFeedErrors(feed)).toEqual([]);
    expect(Object.keys(feed)[0]).toBe('version');
    expect(feed).toMatchObject({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Ada Lovelace',
      home_page_url: `${h.url}/sites/ada/`,
      feed_url: `${h.url}/sites/ada/feed.json`,
    });
    expect(feed.items.map((i: any) => i.id)).toEqual([String(shortId), String(longId)]);
    const long = feed.items[1];
    expect(long).toMatchObject({
      url: permalink,
      title: 'A <Longer> Post',
      tags: ['Notes'],
      image: `${h.url}/sites/ada/media/cat.png`,
    });
    expect(long.date_published).toMatch(/\+00:00$/);
    expect(feed.items[0].title).toBeUndefined();
  });

  it('RSS 2.0 lists the same posts', async () => {
    const res = await h.get('/sites/ada/feed.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.text.match(/<item>/g)).toHaveLength(2);
    expect(res.text).toContain(`<guid isPermaLink="true">${permalink}</guid>`);
    expect(res.text).toContain('<title>A &lt;Longer&gt; Post</title>');
  });

  it('RSD names the XML-RPC endpoint for MetaWeblog (preferred) and Blogger with the site id', async () => {
    const res = await h.get('/sites/ada/rsd.xml');
    const site = await h.siteOf(ada.id);
    expect(res.headers['content-type']).toBe('application/rsd+xml; charset=utf-8');
    expect(res.text).toContain(
      `<api name="MetaWeblog" blogID="${site._id}" preferred="true" apiLink="${h.url}/xmlrpc"/>`,
    );
    expect(res.text).toContain(
      `<api name="Blogger" blogID="${site._id}" preferred="false" apiLink="${h.url}/xmlrpc"/>`,
    );
  });
});
