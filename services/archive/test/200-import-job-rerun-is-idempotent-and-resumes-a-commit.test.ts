// The import job may run again (a lease lost, a crash after it finished): running a completed
// import's job again changes nothing — same posts, same ETag — and a job that died while committing
// finishes the commit when it runs again.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { enqueueJob, JobQueue } from '@murmur/jobs';
import { testLogger } from '@murmur/testing';
import { importRunJob } from '../src/domain/jobs.js';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { eventually, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let queue: JobQueue;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  // A second client of the service's queue: what it enqueues, the running service runs.
  queue = new JobQueue(h.store, { service: 'archive', logger: testLogger() });
});
afterAll(() => h?.stop());

async function runJobAgain(importId: number) {
  const job = await enqueueJob(queue, importRunJob, { importId });
  await eventually(async () => {
    const doc = await h.store.collection('jobs').findOne({ _id: job._id });
    return doc?.status === 'done' ? doc : undefined;
  });
}

it("running a completed import's job again changes nothing", async () => {
  const state = await h.importFile(ada, jsonFeed(dailyPosts(30)), 'application/json');
  const first = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  await runJobAgain(Number(state.id.slice(4)));
  const again = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(again.response.headers['etag']).toBe(first.response.headers['etag']);
  expect(ids(again)).toEqual(ids(first));
  expect(await h.store.collection('posts').countDocuments({ siteId: ada.siteId })).toBe(30);
});

it('a job that died while committing applies the staged changes when it runs again', async () => {
  const before = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  const p29 = await h.store.collection('posts').findOne({ _id: `${ada.siteId}:p29` });
  const importId = 800_000;
  const now = new Date();
  await h.store.collection('imports').insertOne({
    _id: importId,
    siteId: ada.siteId,
    userId: ada.id,
    kind: 'jsonfeed',
    status: 'committing',
    imported: 1,
    skipped: 0,
    error: null,
    activeSite: ada.siteId,
    siteTitle: 'ada',
    siteUrl: ada.siteUrl,
    createdAt: now,
    updatedAt: now,
  });
  await h.store.collection('staged').insertOne({
    _id: `${importId}:p29`,
    importId,
    siteId: ada.siteId,
    post: { ...p29, title: 'Resumed' },
  });
  // Not visible before the commit completes.
  expect((await h.feed(`/imported/archive/${ada.siteId}/recent.json`)).items[0]!.title).toBe(
    'Post number 29',
  );
  await runJobAgain(importId);
  const after = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(after.items[0]!.title).toBe('Resumed');
  expect(after.response.headers['etag']).not.toBe(before.response.headers['etag']);
  const status = await h.request('GET', `/imported/archive/${ada.siteId}/import/imp-${importId}`, {
    token: ada.token,
  });
  expect(status.json()).toMatchObject({ status: 'complete' });
  expect(await h.store.collection('staged').countDocuments({ importId })).toBe(0);
  expect(await h.store.collection('posts').countDocuments({ siteId: ada.siteId })).toBe(30);
});
