// New entries of subscribed feeds are appended to the user's state without reading it (`arrived`), and
// every append rewrites the whole state document; on the embedded store it is decoded, copied and
// compared element by element. Left to grow (a user subscribing to 1,000 feeds appends 20,000 ids),
// each poll cost as much as the user's whole unread set (issue 38). Once FOLD_ARRIVED_AT ids arrived,
// they are folded into the unread string — which changes nothing a client sees: the same unread ids,
// the same Last-Modified.
import { describe, expect, test } from '@jest/globals';
import { FOLD_ARRIVED_AT, unreadOf } from '../src/domain/states.js';
import { rssWithItems } from './feed-server.js';
import { useReaderWithFeedServer, type Harness } from './harness.js';
import type { FeedServer } from './feed-server.js';
import type { TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;
useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

const items = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    guid: `${prefix}${count - i}`,
    title: `${prefix} ${count - i}`,
  }));

describe('arrived ids', () => {
  test(`folded into the unread set after ${FOLD_ARRIVED_AT}: the same unread ids and Last-Modified`, async () => {
    // 12 feeds of 100 items: subscribing makes each feed's newest 100 unread, 1,200 ids pushed.
    const expected = new Set<number>();
    let sawLong = false;
    for (let f = 0; f < 12; f++) {
      feeds.set(`/f${f}.xml`, { body: rssWithItems(`Feed ${f}`, items(`f${f}-`, 100)) });
      const sub = await h.subscribe(ann, feeds.url(`/f${f}.xml`));
      const entries = (await h.get(ann, `/feeds/v2/feeds/${sub.feed_id}/entries.json?per_page=100`)).json();
      for (const e of entries as { id: number }[]) expected.add(e.id);
      const state = await h.ctx.store.stateOfUser(ann.id);
      if (state!.arrived.length >= FOLD_ARRIVED_AT - 100) sawLong = true;
      expect(state!.arrived.length).toBeLessThan(FOLD_ARRIVED_AT);
    }
    expect(sawLong).toBe(true);
    const state = await h.ctx.store.stateOfUser(ann.id);
    // Folded once, at 1,000: what arrived since is 200.
    expect(state!.arrived).toHaveLength(200);
    expect(unreadOf({ unread: state!.unread, arrived: [] }).size).toBe(1000);

    h.clock.advance(2_000); // Last-Modified is sent once the second of the change has passed
    const res = await h.get(ann, '/feeds/v2/unread_entries.json');
    expect(new Set(res.json() as number[])).toEqual(expected);
    expect(res.json()).toHaveLength(1200);

    // The fold moved no list's time: a client's conditional request is still answered 304.
    const lastModified = res.headers['last-modified'] as string;
    h.clock.advance(60_000);
    await h.ctx.states.foldArrived(ann.id);
    expect((await h.ctx.store.stateOfUser(ann.id))!.arrived).toHaveLength(0);
    const again = await h.get(ann, '/feeds/v2/unread_entries.json', { 'if-modified-since': lastModified });
    expect(again.statusCode).toBe(304);
    expect(new Set((await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[])).toEqual(expected);
  });
});
