// A post event reaches every replica's index at once, and the store through the durable consumer a
// moment later (or in another replica). In between, a timeline must not count a post it cannot show:
// the Microsub badge (feeds.timeline.positions, from the index) said 3 while the page
// (feeds.timeline.get) held only 2, and the JSON Feed was built without the post under a validator that
// named it. Here the durable consumer's store write is held back, so that moment lasts.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feeds } from '@murmur/contracts';
import type { Collection } from '@murmur/store';
import { eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness({ gateway: false });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  await h.bus.request(feeds.followCreate, { userId: ada.id, username: 'bob' });
  await h.postEvent('published', { id: 1, userId: bob.id, publishedAt: '2026-11-21T08:00:00+00:00' });
  await eventually(async () => {
    const page = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 10 });
    return page.items.length === 1 ? true : undefined;
  });
});
afterAll(async () => {
  await h?.stop();
});

it('shows the post from its event until the store has it, in the bus page and in the JSON Feed', async () => {
  const posts = h.store.collection('posts') as Collection<{ _id: number }>;
  const updateOne = posts.updateOne.bind(posts);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  posts.updateOne = (async (...args: Parameters<typeof updateOne>) => {
    await held;
    return updateOne(...args);
  }) as typeof posts.updateOne;
  try {
    await h.postEvent('published', {
      id: 2,
      userId: bob.id,
      title: 'fresh',
      publishedAt: '2026-11-22T08:00:00+00:00',
    });
    const query = { userId: ada.id, kind: 'default', limit: 10 } as const;
    // The index has it (what a badge counts)…
    await eventually(async () => {
      const positions = await h.bus.request(feeds.timelinePositions, query);
      return positions.items.length === 2 ? true : undefined;
    });
    expect(await h.store.collection('posts').findOne({ _id: 2 })).toBeNull();
    // …so the page shows it, and so does the feed.
    const page = await h.bus.request(feeds.timelineGet, query);
    expect(page.items.map((i) => [i.id, i.title])).toEqual([
      ['2', 'fresh'],
      ['1', expect.anything()],
    ]);
    const feed = await h.feed('/feeds/ada.json');
    expect(feed.items.map((i) => String(i.id).split('/').pop())).toContain('2');
  } finally {
    posts.updateOne = updateOne;
    release();
  }
  // Once stored, the same answer from the store.
  await eventually(async () => ((await h.store.collection('posts').findOne({ _id: 2 })) ? true : undefined));
  const page = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 10 });
  expect(page.items.map((i) => i.id)).toEqual(['2', '1']);
});
