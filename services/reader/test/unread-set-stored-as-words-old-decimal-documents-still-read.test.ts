// The unread set's stored form (domain/states.ts): 32-bit words in base64 behind `~`, because turning
// 30,000 ids into decimal text on every change was most of the cost of marking entries read (issue 38).
// Documents written before hold comma-separated decimal ids; they are read as they are, and their
// next change rewrites them. Ids that do not fit 32 bits are kept in decimal rather than cut.
import { describe, expect, test } from '@jest/globals';
import { encodeIds, forEachId, unreadOf } from '../src/domain/states.js';
import { rssWithItems } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';
import type { FeedServer } from './feed-server.js';

/** The ids of a stored set, in stored order. */
function decodeIds(text: string): number[] {
  const ids: number[] = [];
  forEachId(text, (id) => ids.push(id));
  return ids;
}

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('encoding', () => {
  test('round trip of a set and of an array, in order', () => {
    const ids = [5, 1, 4_294_967_295, 0, 77, 123_456_789];
    const text = encodeIds(ids);
    expect(text.startsWith('~')).toBe(true);
    expect(decodeIds(text)).toEqual(ids);
    expect(decodeIds(encodeIds(new Set(ids)))).toEqual(ids);
    expect(encodeIds([])).toBe('');
    expect(decodeIds('')).toEqual([]);
  });

  test('30,000 ids take 4 bytes each, a third less than decimal text', () => {
    const ids = Array.from({ length: 30_000 }, (_, i) => 1_000_000 + i * 7);
    expect(encodeIds(ids).length).toBeLessThan(ids.join(',').length * 0.8);
    expect(decodeIds(encodeIds(ids))).toEqual(ids);
  });

  test('an id past 32 bits keeps the whole set in decimal', () => {
    const ids = [1, 2 ** 32, 3];
    expect(encodeIds(ids)).toBe('1,4294967296,3');
    expect(decodeIds(encodeIds(ids))).toEqual(ids);
  });

  test('the decimal form of earlier documents is read', () => {
    expect(decodeIds('10,20,30')).toEqual([10, 20, 30]);
    expect([...unreadOf({ unread: '10,20', arrived: [30, 10] })].sort()).toEqual([10, 20, 30]);
  });

  test('a document that is not whole words is refused, not misread', () => {
    expect(() => decodeIds('~AAAA')).toThrow(/32-bit words/);
  });
});

describe('a stored state in the earlier decimal form', () => {
  test('is served as it is, and a change rewrites it in words with the same other ids', async () => {
    feeds.set('/old.xml', {
      body: rssWithItems(
        'Old',
        Array.from({ length: 5 }, (_, i) => ({ guid: `o${5 - i}`, title: `Old ${5 - i}` })),
      ),
    });
    await h.subscribe(ann, feeds.url('/old.xml'));
    const ids = ((await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[]).sort(
      (a, b) => a - b,
    );
    expect(ids).toHaveLength(5);
    // As an earlier version wrote it: decimal, everything folded, a new version so views rebuild.
    const state = await h.ctx.store.stateOfUser(ann.id);
    expect(
      await h.ctx.store.writeStateAtVersion(
        ann.id,
        state!.version,
        { unread: ids.join(','), arrived: [], starred: state!.starred },
        state!.updatedAt,
      ),
    ).toBe(true);
    const served = (await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[];
    expect([...served].sort((a, b) => a - b)).toEqual(ids);

    const res = await h.req(ann, 'DELETE', '/feeds/v2/unread_entries.json', { unread_entries: [ids[0]] });
    expect(res.statusCode).toBe(200);
    const after = await h.ctx.store.stateOfUser(ann.id);
    expect(after!.unread.startsWith('~')).toBe(true);
    expect(decodeIds(after!.unread).sort((a, b) => a - b)).toEqual(ids.slice(1));
    const unread = (await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[];
    expect([...unread].sort((a, b) => a - b)).toEqual(ids.slice(1));
  });
});
