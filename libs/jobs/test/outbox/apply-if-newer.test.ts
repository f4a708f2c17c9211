// Out-of-order events must not overwrite newer state with older: applyIfNewer keeps the highest revision, on the
// embedded store (the same port MongoDB implements), and deterministic event ids make retries record one event.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { applyIfNewer, eventIdFor } from '../../src/outbox/index.js';
import { openStore } from '@murmur/runtime';
import { type Collection, type Store } from '@murmur/store';

type Site = { _id: number; title: string; revision?: number; seenBy?: string[] };

describe('applyIfNewer', () => {
  let store: Store;
  let sites: Collection<Site>;
  beforeEach(async () => {
    store = await openStore('memory:', { service: 'reader' });
    sites = store.collection<Site>('sites');
  });
  afterEach(async () => {
    await store.close();
  });

  test('revision 2 then a late revision 1: the document keeps revision 2', async () => {
    await expect(applyIfNewer(sites, { _id: 1 }, 2, { $set: { title: 'new' } })).resolves.toBe('applied');
    await expect(applyIfNewer(sites, { _id: 1 }, 1, { $set: { title: 'old' } })).resolves.toBe('stale');
    await expect(sites.findOne({ _id: 1 })).resolves.toEqual({ _id: 1, title: 'new', revision: 2 });
  });

  test('in order, each newer revision is applied; a redelivery of the current one changes nothing', async () => {
    await applyIfNewer(sites, { _id: 1 }, 1, { $set: { title: 'one' }, $push: { seenBy: 'r1' } });
    await applyIfNewer(sites, { _id: 1 }, 2, { $set: { title: 'two' }, $push: { seenBy: 'r2' } });
    await expect(
      applyIfNewer(sites, { _id: 1 }, 2, { $set: { title: 'two' }, $push: { seenBy: 'again' } }),
    ).resolves.toBe('stale');
    await expect(sites.findOne({ _id: 1 })).resolves.toEqual({
      _id: 1,
      title: 'two',
      revision: 2,
      seenBy: ['r1', 'r2'],
    });
  });

  test('a document written before revisions existed accepts any revision', async () => {
    await sites.insertOne({ _id: 1, title: 'legacy' });
    await expect(applyIfNewer(sites, { _id: 1 }, 1, { $set: { title: 'r1' } })).resolves.toBe('applied');
    await expect(sites.findOne({ _id: 1 })).resolves.toMatchObject({ title: 'r1', revision: 1 });
  });

  test('concurrent out-of-order deliveries converge on the newest, whichever lands first', async () => {
    const outcomes = await Promise.all(
      [3, 1, 5, 2, 4].map((r) => applyIfNewer(sites, { _id: 7 }, r, { $set: { title: `r${r}` } })),
    );
    expect(outcomes).toContain('applied');
    await expect(sites.findOne({ _id: 7 })).resolves.toEqual({ _id: 7, title: 'r5', revision: 5 });
  });

  test('without upsert a missing document stays missing; a filter with its own $or still works', async () => {
    await expect(
      applyIfNewer(sites, { _id: 9 }, 1, { $set: { title: 'x' } }, { upsert: false }),
    ).resolves.toBe('stale');
    await expect(sites.countDocuments({})).resolves.toBe(0);
    await sites.insertOne({ _id: 2, title: 'a', revision: 1 });
    const filter = { _id: 2, $or: [{ title: 'a' }, { title: 'b' }] };
    await expect(applyIfNewer(sites, filter, 2, { $set: { title: 'b' } }, { upsert: false })).resolves.toBe(
      'applied',
    );
    await expect(applyIfNewer(sites, filter, 1, { $set: { title: 'a' } }, { upsert: false })).resolves.toBe(
      'stale',
    );
    await expect(sites.findOne({ _id: 2 })).resolves.toEqual({ _id: 2, title: 'b', revision: 2 });
  });
});

describe('eventIdFor', () => {
  test('the same operation gives the same id; another revision or verb another one', () => {
    expect(eventIdFor('identity', 'user', 42, 3)).toBe('identity.user.42.r3');
    expect(eventIdFor('identity', 'user', 42, 3)).toBe(eventIdFor('identity', 'user', '42', 3));
    expect(eventIdFor('identity', 'user', 42, 4)).not.toBe(eventIdFor('identity', 'user', 42, 3));
    expect(eventIdFor('publishing', 'post', 'abc', 2, 'deleted')).toBe('publishing.post.abc.r2.deleted');
  });

  test('long or unusual keys (URLs) become a short hash; a bad revision is refused', () => {
    const url = `https://example.com/${'x'.repeat(100)}?a b`;
    const id = eventIdFor('feeds', 'feed', url, 1);
    expect(id).toMatch(/^feeds\.feed\.h[A-Za-z0-9_-]{22}\.r1$/);
    expect(eventIdFor('feeds', 'feed', url, 1)).toBe(id);
    expect(() => eventIdFor('feeds', 'feed', 'k', -1)).toThrow(RangeError);
    expect(() => eventIdFor('feeds', 'feed', 'k', 1.5)).toThrow(RangeError);
  });
});
