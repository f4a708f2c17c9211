// RSS 2.0, RSS 1.0, Atom 1.0, JSON Feed 1 and 1.1 become entries with the same shape; content is
// sanitised with absolute URLs; entry identity follows guid, then link, then a content hash.
import { describe, expect, test } from '@jest/globals';
import { rssWithItems, type FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

type Entry = Record<string, any>;
async function entriesOf(url: string, query = ''): Promise<Entry[]> {
  const sub = await h.subscribe(ann, url);
  return (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json?mode=extended${query}`)).json();
}

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('formats', () => {
  test('RSS 2.0: sanitised content, absolute URLs, author, dates, enclosure', async () => {
    const [notes, episode, hello] = await entriesOf(feeds.url('/rss2.xml'));
    expect(notes).toMatchObject({
      title: 'Release notes',
      author: 'Jo',
      published: '2026-11-20T17:02:11.000000Z',
    });
    expect(notes!.url).toBe(feeds.url('/2026/11/notes'));
    expect(notes!.content).toBe(
      `<p>Hello <a href="${feeds.url('/a')}" rel="nofollow noopener noreferrer">a</a></p><img src="${feeds.url('/i.png')}" />`,
    );
    expect(notes!.summary).toBe('Hello a');
    expect(episode!.enclosure).toEqual({
      enclosure_url: feeds.url('/media/episode-1.mp3'),
      enclosure_type: 'audio/mpeg',
      enclosure_length: '12345678',
      itunes_duration: '00:42:00',
    });
    expect(hello).toMatchObject({
      title: 'Hello & welcome',
      content: '<p>Welcome to the <em>blog</em>.</p>',
    });
  });

  test('RSS 1.0 (RDF)', async () => {
    const list = await entriesOf(feeds.url('/rss1.xml'));
    expect(list.map((e) => e.title).sort()).toEqual(['RDF one', 'RDF two']);
    const one = list.find((e) => e.title === 'RDF one')!;
    expect(one).toMatchObject({
      url: 'http://rdf.example/one',
      author: 'Ann',
      published: '2026-11-19T10:00:00.000000Z',
    });
  });

  test('Atom 1.0: HTML titles become text, iframes go, relative links resolve (xml:base, else the feed URL)', async () => {
    const list = await entriesOf(feeds.url('/atom.xml'));
    const bold = list.find((e) => e.title === 'Bold move')!;
    expect(bold.url).toBe(feeds.url('/journal/bold-move'));
    expect(bold.author).toBe('Sam');
    expect(bold.content).toBe(
      `<p>Atom <a href="${feeds.url('/relative/link')}" rel="nofollow noopener noreferrer">content</a> with text.</p>`,
    );
    expect(list.find((e) => e.title === 'Second atom entry')!.content).toBe('Only a summary here.');
  });

  test('JSON Feed 1: content_text as paragraphs, the first attachment as enclosure, json_feed kept', async () => {
    const [item] = await entriesOf(feeds.url('/feed1.json'), '&include_enclosure=true');
    expect(item).toMatchObject({
      title: 'Version one item',
      author: 'Kim',
      content: '<p>Plain text content.</p><p>Second paragraph.</p>',
      published: '2026-11-20T15:00:00.000000Z',
      enclosure: {
        enclosure_url: 'https://json-one.example/audio.m4a',
        enclosure_length: '89970236',
        itunes_duration: '6629',
      },
      json_feed: { id: '1', image: 'https://json-one.example/img/1.png' },
    });
  });

  test('JSON Feed 1.1: plain-text titles, numeric ids, authors, banner_image, external_url; data: and javascript: removed', async () => {
    const list = await entriesOf(feeds.url('/feed11.json'));
    const item = list.find((e) => e.json_feed?.id === '42')!;
    // A JSON Feed title is plain text (jsonfeed.org/version/1.1): `<i>` is kept as characters.
    expect(item.title).toBe('Eleven <i>point</i> one');
    expect(item.author).toBe('Lee');
    expect(item.content).toBe(
      '<p>HTML content with <img /> and <a rel="nofollow noopener noreferrer">a bad link</a>.</p>',
    );
    expect(item.json_feed).toEqual({
      id: '42',
      authors: [{ name: 'Lee', avatar: 'https://json-eleven.example/lee.png' }],
      banner_image: 'https://json-eleven.example/banner.png',
      external_url: 'https://elsewhere.example/article',
    });
    expect(list.find((e) => e.json_feed?.id === '43')!.title).toBeNull();
  });
});

describe('entry identity', () => {
  test('a guid repeated in one document falls back to the link; identical ones are kept once', async () => {
    const list = await entriesOf(feeds.url('/dup-guids.xml'));
    expect(list.map((e) => e.title).sort()).toEqual(['First', 'No ids at all', 'Second', 'Third']);
  });

  test('a re-seen entry is updated in place without becoming unread again', async () => {
    feeds.set('/edit.xml', { body: rssWithItems('Edits', [{ guid: 'e1', title: 'Draft title' }]) });
    const sub = await h.subscribe(ann, feeds.url('/edit.xml'));
    const [before] = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
    await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', [before.id]);
    feeds.set('/edit.xml', { body: rssWithItems('Edits', [{ guid: 'e1', title: 'Final title' }]) });
    await h.refresh(sub.feed_id);
    const after = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json`)).json();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before.id, title: 'Final title', created_at: before.created_at });
    expect((await h.get(ann, '/feeds/v2/unread_entries.json')).json()).not.toContain(before.id);
  });
});

describe('stored HTML', () => {
  test('never holds scripts, event handlers, styles, javascript: or data: URLs', async () => {
    const docs = await h.store.collection('entries').find({});
    expect(docs.length).toBeGreaterThan(10);
    for (const doc of docs) {
      const html = String(doc.content ?? '');
      expect(html).not.toMatch(/<script|<iframe|\son\w+=|style=|javascript:|data:/i);
    }
  });
});
