// OPML: an import (text/xml) answers at once with pending items; a job subscribes each and records
// complete/failed, folders becoming tags. Export is OPML 2.0 with folders from taggings.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { READER_TIME, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
const XML = { 'content-type': 'text/xml' };

const opml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>Mine</title></head><body>${body}</body></opml>`;

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('import', () => {
  test('answers with pending items; the job subscribes, tags and reports each item', async () => {
    const doc = opml(
      `<outline text="Tech" title="Tech">
         <outline type="rss" text="Example" xmlUrl="${feeds.url('/rss2.xml')}" htmlUrl="${feeds.url('/')}"/>
         <outline type="rss" title="Broken" xmlUrl="${feeds.url('/nothing-here.xml')}"/>
       </outline>
       <outline type="rss" text="Atom" xmlUrl="${feeds.url('/atom.xml')}"/>
       <outline type="rss" text="Bad scheme" xmlUrl="ftp://x.example/feed"/>`,
    );
    const res = await h.req(ann, 'POST', '/feeds/v2/imports.json', doc, XML);
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      complete: false,
      created_at: expect.stringMatching(READER_TIME),
      import_items: [
        { title: 'Example', feed_url: feeds.url('/rss2.xml'), status: 'pending' },
        { title: 'Broken', feed_url: feeds.url('/nothing-here.xml'), status: 'pending' },
        { title: 'Atom', feed_url: feeds.url('/atom.xml'), status: 'pending' },
        { title: 'Bad scheme', feed_url: 'ftp://x.example/feed', status: 'pending' },
      ],
    });
    await h.idle();
    const done = (await h.get(ann, `/feeds/v2/imports/${created.id}.json`)).json();
    expect(done.complete).toBe(true);
    expect(done.import_items.map((i: { status: string }) => i.status)).toEqual([
      'complete',
      'failed',
      'complete',
      'failed',
    ]);
    expect((await h.get(ann, '/feeds/v2/imports.json')).json()).toEqual([done]);
    const subs = (await h.get(ann, '/feeds/v2/subscriptions.json')).json();
    expect(subs.map((s: { feed_url: string }) => s.feed_url).sort()).toEqual([
      feeds.url('/atom.xml'),
      feeds.url('/rss2.xml'),
    ]);
    const taggings = (await h.get(ann, '/feeds/v2/taggings.json')).json();
    expect(taggings).toEqual([{ id: expect.any(Number), feed_id: expect.any(Number), name: 'Tech' }]);
  });

  test.each([
    ['a JSON body', '{"opml": true}', { 'content-type': 'application/json' }],
    ['plain text', 'not xml', { 'content-type': 'text/plain' }],
    ['XML that is not OPML', '<?xml version="1.0"?><rss version="2.0"/>', XML],
    ['XML that is not well-formed', '<opml><body><outline></opml>', XML],
    ['a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "b">]><opml><body/></opml>', XML],
  ])('%s → 415 and nothing imported', async (_what, body, headers) => {
    const before = await h.store.collection('imports').countDocuments({});
    const res = await h.req(ann, 'POST', '/feeds/v2/imports.json', body, headers);
    expect(res.statusCode).toBe(415);
    expect(res.json().status).toBe(415);
    expect(await h.store.collection('imports').countDocuments({})).toBe(before);
  });

  test('elements nested deeper than 64 → 415 naming the limit; 64 deep is imported', async () => {
    // opml, body, then folders: the feed's outline is element 66, then 64.
    const nestedOpml = (folders: number) =>
      `<opml version="2.0"><body>${'<outline text="f">'.repeat(folders)}` +
      `<outline xmlUrl="${feeds.url('/not-served.xml')}"/>${'</outline>'.repeat(folders)}</body></opml>`;
    const deep = await h.req(ann, 'POST', '/feeds/v2/imports.json', nestedOpml(63), XML);
    expect(deep.statusCode).toBe(415);
    expect(deep.json().message).toMatch(/nested more than 64 deep/);
    const fine = await h.req(ann, 'POST', '/feeds/v2/imports.json', nestedOpml(61), XML);
    expect(fine.statusCode).toBe(200);
  });

  test('more than 1,000 feeds → 415', async () => {
    const outlines = Array.from(
      { length: 1001 },
      (_, i) => `<outline xmlUrl="https://f${i}.example/feed"/>`,
    ).join('');
    const res = await h.req(ann, 'POST', '/feeds/v2/imports.json', opml(outlines), XML);
    expect(res.statusCode).toBe(415);
  });
});

describe('export', () => {
  test('OPML 2.0 with a folder per tag', async () => {
    const res = await h.get(ann, '/feeds/v2/subscriptions.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const xml = res.body;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<opml version="2.0">/);
    expect(xml).toMatch(
      new RegExp(
        `<outline text="Tech" title="Tech">\\s*<outline text="Example Blog" title="Example Blog" type="rss" xmlUrl="${feeds.url('/rss2.xml')}"`,
      ),
    );
    expect(xml).toContain(`xmlUrl="${feeds.url('/atom.xml')}"`);
  });

  test('what is exported imports again', async () => {
    const bob = h.identity.addUser('bob');
    const exported = (await h.get(ann, '/feeds/v2/subscriptions.xml')).body;
    const res = await h.req(bob, 'POST', '/feeds/v2/imports.json', exported, XML);
    expect(res.json().import_items).toHaveLength(2);
    await h.idle();
    expect((await h.get(bob, '/feeds/v2/subscriptions.json')).json()).toHaveLength(2);
    expect((await h.get(bob, '/feeds/v2/taggings.json')).json().map((t: { name: string }) => t.name)).toEqual(
      ['Tech'],
    );
  });
});
