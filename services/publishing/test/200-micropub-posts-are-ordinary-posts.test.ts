// A Micropub post is an ordinary Murmur post: the same event (what feeds, Microsub, push and the webmention
// sender hear), the same JSON Feed and XML-RPC getPost. Its h-entry properties land where they belong —
// name, summary, categories, mp-slug in the permalink, published dates that backdate or schedule, drafts
// that stay private — and likes, reposts, replies and bookmarks show with their microformats classes in
// the post's HTML, whose links the webmention service sends mentions to. Updates, deletes and undeletes
// are announced like any other change; a deleted post leaves the feeds and answers 410.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mf2 } from 'microformats-parser';
import { recordPostEvents, settle, type PostEventLog } from './events.js';
import { JPEG, json, pathOf, PNG, startMicropubHarness, type MicropubHarness } from './micropub.js';

let m: MicropubHarness;
let token: string;
let log: PostEventLog;

beforeAll(async () => {
  m = await startMicropubHarness();
  log = await recordPostEvents(m.h.bus);
  token = m.tokenWith('create update delete media');
}, 120_000);
afterAll(async () => {
  await log.stop();
  await m.stop();
});

async function create(properties: Record<string, unknown[]>, extra: Record<string, unknown> = {}) {
  const res = await m.post(token, { json: { type: ['h-entry'], properties, ...extra } });
  expect(res.statusCode).toBe(201);
  return res.headers.location as string;
}

async function entryAt(url: string) {
  const res = await m.h.get(pathOf(url));
  expect(res.statusCode).toBe(200);
  const parsed = mf2(res.text, { baseUrl: url });
  return parsed.items.find((i) => i.type?.includes('h-entry'))!.properties as Record<string, any[]>;
}

async function source(url: string) {
  const res = await m.query(token, { q: 'source', url });
  expect(res.statusCode).toBe(200);
  return json(res).properties as Record<string, any[]>;
}

/** The post id behind a URL, from the source listing's order is not enough: ask the store. */
async function idOf(url: string): Promise<number> {
  const path = new URL(url).pathname.replace(/^\/sites\/ada\//, '');
  const doc = await m.h.store.collection('posts').findOne({ path });
  return (doc as unknown as { _id: number })._id;
}

describe('one post, every reader', () => {
  let url: string;
  let id: number;

  beforeAll(async () => {
    url = await create({
      name: ['Micropub and me'],
      content: ['Written in Quill, read everywhere.'],
      summary: ['A short one'],
      category: ['indieweb', 'notes'],
    });
    id = await idOf(url);
  });

  it('answers 201 with the permalink as Location, and the page is its h-entry', async () => {
    expect(url).toMatch(new RegExp(`^${m.h.url}/sites/ada/\\d{4}/\\d{2}/\\d{2}/micropub-and-me\\.html$`));
    const props = await entryAt(url);
    expect(props.name).toEqual(['Micropub and me']);
    expect(props.category).toEqual(['indieweb', 'notes']);
  });

  it('is announced once as evt.publishing.post.published with its URL and HTML', async () => {
    await settle();
    const events = log.of(id);
    expect(events.map((e) => e.verb)).toEqual(['published']);
    expect(events[0]!.envelope.data).toMatchObject({
      url,
      title: 'Micropub and me',
      categories: ['indieweb', 'notes'],
    });
  });

  it('is in the JSON Feed and in XML-RPC getPost like an XML-RPC post', async () => {
    const feed = JSON.parse((await m.h.get('/sites/ada/feed.json')).text);
    expect(feed.items.map((i: { url: string }) => i.url)).toContain(url);
    const got = await m.h.call('metaWeblog.getPost', [id, 'ada', m.ada.token]);
    expect(got.value).toMatchObject({ title: 'Micropub and me', link: url, mt_excerpt: 'A short one' });
    expect(got.value.categories).toEqual(['indieweb', 'notes']);
  });

  it('an update is announced as updated; a delete as deleted, the post leaves the feed and answers 410', async () => {
    const res = await m.post(token, {
      json: { action: 'update', url, replace: { name: ['Micropub and you'] } },
    });
    expect(res.statusCode).toBe(204);
    await m.post(token, { form: { action: 'delete', url } });
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published', 'updated', 'deleted']);
    expect((await m.h.get(pathOf(url))).statusCode).toBe(410);
    expect((await m.h.get('/sites/ada/feed.json')).text).not.toContain(url);
    const undone = await m.post(token, { form: { action: 'undelete', url } });
    expect(undone.statusCode).toBe(204);
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published', 'updated', 'deleted', 'published']);
    expect((await entryAt(url)).name).toEqual(['Micropub and you']);
  });
});

describe('responses to other posts', () => {
  const kinds = [
    ['in-reply-to', 'u-in-reply-to', 'https://example.com/a-post'],
    ['like-of', 'u-like-of', 'https://example.com/liked'],
    ['repost-of', 'u-repost-of', 'https://example.com/reposted'],
    ['bookmark-of', 'u-bookmark-of', 'https://example.com/bookmarked'],
  ] as const;

  for (const [property, className, target] of kinds) {
    it(`${property} is shown with class ${className} and its link is in the announced HTML (webmentions)`, async () => {
      // A like or repost needs no text.
      const url = await create(
        property === 'in-reply-to'
          ? { [property]: [target], content: ['Agreed!'] }
          : { [property]: [target] },
      );
      const props = await entryAt(url);
      expect(props[property]).toEqual([target]);
      const page = (await m.h.get(pathOf(url))).text;
      expect(page).toContain(`class="${className}" href="${target}"`);
      await settle();
      const event = log.of(await idOf(url))[0]!;
      expect(event.envelope.data.contentHtml).toContain(`href="${target}"`);
      expect((await source(url))[property]).toEqual([target]);
    });
  }

  it('a reply given as an h-cite keeps its URL', async () => {
    const url = await create({
      'in-reply-to': [
        { type: ['h-cite'], properties: { url: ['https://example.com/cited'], name: ['Cited'] } },
      ],
      content: ['Yes.'],
    });
    expect((await source(url))['in-reply-to']).toEqual(['https://example.com/cited']);
  });
});

describe('what the h-entry says of the post', () => {
  it('mp-slug names the permalink', async () => {
    const url = await create({ content: ['Slugged'] }, { 'mp-slug': ['my-own-slug'] });
    expect(url).toMatch(/\/my-own-slug\.html$/);
  });

  it('mp-slug in a form body names it too', async () => {
    const res = await m.post(token, { form: { h: 'entry', content: 'Form slug', 'mp-slug': 'from-a-form' } });
    expect(res.headers.location).toMatch(/\/from-a-form\.html$/);
  });

  it('a past published date backdates the post (its date path and dt-published)', async () => {
    const url = await create({ content: ['Old news'], published: ['2019-03-04T05:06:07Z'] });
    expect(url).toContain('/2019/03/04/');
    expect((await entryAt(url)).published).toEqual(['2019-03-04T05:06:07+00:00']);
  });

  it('a future published date schedules it: not on the site until then, post-status published in source', async () => {
    const url = await create({ content: ['Tomorrow'], published: ['2099-01-01T00:00:00Z'] });
    expect((await m.h.get(pathOf(url))).statusCode).toBe(404);
    const doc = await m.h.store.collection('posts').findOne({ _id: await idOf(url) });
    expect((doc as unknown as { status: string }).status).toBe('scheduled');
  });

  it('post-status draft keeps it off the site; its draft URL works for source and update', async () => {
    const url = await create({ content: ['Not yet'], 'post-status': ['draft'] });
    expect(url).toMatch(new RegExp(`^${m.h.url}/sites/ada/drafts/\\d+$`));
    expect((await m.h.get(pathOf(url))).statusCode).toBe(404);
    expect((await source(url))['post-status']).toEqual(['draft']);
    // Publishing it gives it a permalink: 201 with the new URL.
    const res = await m.post(token, {
      json: { action: 'update', url, replace: { 'post-status': ['published'] } },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toMatch(/\/not-yet\.html$/);
    expect((await entryAt(res.headers.location as string)).content![0].value).toBe('Not yet');
  });

  it('a scheduled post deleted over Micropub stays 404 (never public), and undelete brings it back', async () => {
    const url = await create({ content: ['Later, maybe'], published: ['2099-02-02T00:00:00Z'] });
    expect((await m.post(token, { form: { action: 'delete', url } })).statusCode).toBe(204);
    expect((await m.h.get(pathOf(url))).statusCode).toBe(404);
    expect((await m.query(token, { q: 'source', url })).statusCode).toBe(400);
    expect((await m.post(token, { form: { action: 'undelete', url } })).statusCode).toBe(204);
    expect((await source(url)).content).toEqual(['Later, maybe']);
  });

  it('a draft deleted and undeleted over Micropub keeps its draft URL', async () => {
    const url = await create({ content: ['Draft to bin'], 'post-status': ['draft'] });
    expect((await m.post(token, { json: { action: 'delete', url } })).statusCode).toBe(204);
    expect((await m.query(token, { q: 'source', url })).statusCode).toBe(400);
    expect((await m.post(token, { json: { action: 'undelete', url } })).statusCode).toBe(204);
    expect((await source(url)).content).toEqual(['Draft to bin']);
  });

  it('a token with draft but not create makes drafts only', async () => {
    const res = await m.post(m.tokenWith('draft'), { form: { h: 'entry', content: 'Draft by scope' } });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toMatch(/\/drafts\/\d+$/);
  });

  it('HTML content is sanitised like every post body; text content stays text', async () => {
    const url = await create({
      content: [{ html: '<p>Hi <script>alert(1)</script><b onclick="x()">there</b></p>' }],
    });
    const page = (await m.h.get(pathOf(url))).text;
    expect(page).toContain('<b>there</b>');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('onclick');
    const text = await create({ content: ['1 < 2 and <b>not bold</b>'] });
    expect((await entryAt(text)).content![0].value).toBe('1 < 2 and <b>not bold</b>');
  });

  it('location and syndication are kept and shown (p-location, u-syndication)', async () => {
    const place = {
      type: ['h-adr'],
      properties: { locality: ['Portland'], latitude: ['45.5'], longitude: ['-122.6'] },
    };
    const url = await create({
      content: ['Here'],
      location: [place],
      syndication: ['https://social.example/@ada/1'],
    });
    const props = await entryAt(url);
    expect(props.location![0].properties.name).toEqual(['Portland']);
    expect(props.syndication).toEqual(['https://social.example/@ada/1']);
    expect((await source(url)).location).toEqual([place]);
  });

  it('a photo uploaded with the post is stored like newMediaObject and shown as u-photo', async () => {
    const res = await m.post(token, {
      multipart: {
        fields: { h: 'entry', content: 'With a file' },
        files: [{ name: 'photo', filename: 'dot.png', type: 'image/png', bytes: PNG }],
      },
    });
    const props = await entryAt(res.headers.location as string);
    const photo = props.photo![0] as string;
    expect(photo).toMatch(new RegExp(`^${m.h.url}/media/\\d+/\\d{4}/[A-Za-z0-9]{16}-dot\\.png$`));
    expect((await m.h.get(pathOf(photo))).body.equals(PNG)).toBe(true);
  });

  it('video and audio files in a multipart create are stored and shown as u-video and u-audio', async () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(100, 1)]);
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(100, 2)]);
    const res = await m.post(token, {
      multipart: {
        fields: { h: 'entry', content: 'Sound and vision' },
        files: [
          { name: 'video', filename: 'clip.mp4', type: 'video/mp4', bytes: mp4 },
          { name: 'audio', filename: 'song.ogg', type: 'audio/ogg', bytes: ogg },
        ],
      },
    });
    expect(res.statusCode).toBe(201);
    const props = await entryAt(res.headers.location as string);
    expect(props.video).toEqual([expect.stringMatching(/-clip\.mp4$/)]);
    expect(props.audio).toEqual([expect.stringMatching(/-song\.ogg$/)]);
    const served = await m.h.get(pathOf(props.audio![0] as string));
    expect(served.headers['content-type']).toBe('audio/ogg');
    expect(served.body.equals(ogg)).toBe(true);
  });

  it('update adds and removes photos and single values', async () => {
    const url = await create({ content: ['Photos later'], category: ['a', 'b'] });
    let res = await m.post(token, {
      json: { action: 'update', url, add: { photo: [`${m.web}/sunset.jpg`] }, delete: { category: ['A'] } },
    });
    expect(res.statusCode).toBe(204);
    let src = await source(url);
    expect(src.photo).toHaveLength(1);
    expect(src.category).toEqual(['b']);
    res = await m.post(token, { json: { action: 'update', url, delete: ['photo'] } });
    expect(res.statusCode).toBe(204);
    src = await source(url);
    expect(src.photo).toBeUndefined();
    expect(src.content).toEqual(['Photos later']);
  });
});

describe('queries', () => {
  it('q=config names the media endpoint, no syndication targets, the post types and the queries', async () => {
    const res = await m.query(token, { q: 'config' });
    expect(json(res)).toEqual({
      'media-endpoint': `${m.h.url}/micropub/media`,
      'syndicate-to': [],
      'post-types': expect.arrayContaining([{ type: 'like', name: 'Like' }]),
      q: ['config', 'source', 'syndicate-to', 'category'],
    });
  });

  it('q=source without url lists the newest posts, drafts included, at most limit', async () => {
    const res = await m.query(token, { q: 'source', limit: '3' });
    const items = json(res).items as Array<{ type: string[]; properties: Record<string, unknown[]> }>;
    expect(items).toHaveLength(3);
    expect(items[0]!.type).toEqual(['h-entry']);
    expect(typeof items[0]!.properties.url![0]).toBe('string');
  });

  it('q=category lists the site’s categories, filtered by filter', async () => {
    await create({ content: ['Tagged'], category: ['Zebra', 'zoo'] });
    const all = json(await m.query(token, { q: 'category' })).categories as string[];
    expect(all).toEqual(expect.arrayContaining(['Zebra', 'zoo', 'indieweb']));
    expect(json(await m.query(token, { q: 'category', filter: 'ZE' })).categories).toEqual(['Zebra']);
  });

  it('the media endpoint answers q=last with the newest upload', async () => {
    const up = await m.post(
      token,
      { multipart: { files: [{ name: 'file', filename: 'last.jpg', type: 'image/jpeg', bytes: JPEG }] } },
      {
        path: '/micropub/media',
      },
    );
    expect(up.statusCode).toBe(201);
    const last = await m.query(token, { q: 'last' }, '/micropub/media');
    expect(json(last)).toEqual({ url: up.headers.location });
  });
});
