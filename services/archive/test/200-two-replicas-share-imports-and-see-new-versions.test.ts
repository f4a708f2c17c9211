// Two archive processes on one store, bus and blob store (replicas): an upload received by one may be
// imported by either, and a replica that has built its read model of a site notices the next completed
// import on its very next read — new posts, new ETag — without any message between them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { RunningService } from '@murmur/runtime';
import { sendOverWire } from '@murmur/testing';
import type { ArchiveConfig } from '../src/index.js';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let second: RunningService<ArchiveConfig>;

beforeAll(async () => {
  h = await startHarness({ blobUrl: `memory:archive-blobs-${randomUUID()}` });
  ada = await h.createUser('ada');
  second = await h.replica();
});
afterAll(() => h?.stop());

const read = (base: string, path: string) => sendOverWire(base, { method: 'GET', url: path });

it('serves the same archive from both replicas and notices a new import on the next read', async () => {
  const path = `/imported/archive/${ada.siteId}/recent.json`;
  for (const count of [3, 5, 8]) {
    // Uploads alternate between the gateway's replica and the second one.
    const target = count === 5 ? second.url : h.url;
    const res = await sendOverWire(target, {
      method: 'POST',
      url: `/imported/archive/${ada.siteId}/import`,
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      payload: jsonFeed(dailyPosts(count)),
    });
    expect(res.statusCode).toBe(202);
    const state = await h.waitImport(ada, res.json().id);
    expect(state).toMatchObject({ status: 'complete', imported: count });
    const viaFirst = await read(h.archive.url, path);
    const viaSecond = await read(second.url, path);
    expect(viaSecond.json().items).toHaveLength(count);
    expect(viaSecond.body).toBe(viaFirst.body);
    expect(viaSecond.headers['etag']).toBe(viaFirst.headers['etag']);
    const search = await read(
      second.url,
      `/imported/archive/${ada.siteId}/search.json?q=entry%20${count - 1}`,
    );
    expect(search.json().items.map((i: { id: string }) => i.id)).toEqual([`p${count - 1}`]);
  }
});
