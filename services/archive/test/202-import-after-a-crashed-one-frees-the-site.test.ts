// An import whose process died (an upload never finished, or a job that lost its lease on its last
// attempt) must not hold its site for ever: once it has been silent long enough, the next import of
// the site marks it failed and starts. A recent one still answers 409.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

/** What a process that died mid-import leaves behind. */
async function leftover(id: number, status: string, minutesAgo: number) {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  await h.store.collection('imports').insertOne({
    _id: id,
    siteId: ada.siteId,
    userId: ada.id,
    kind: 'jsonfeed',
    status,
    imported: 500,
    skipped: 0,
    error: null,
    activeSite: ada.siteId,
    siteTitle: 'ada',
    siteUrl: ada.siteUrl,
    createdAt: at,
    updatedAt: at,
  });
}

it('answers 409 while a running import made progress recently', async () => {
  await leftover(900_001, 'running', 5);
  const res = await h.upload(ada, jsonFeed(dailyPosts(2)), 'application/json');
  expect(res.statusCode).toBe(409);
  await h.store.collection('imports').deleteOne({ _id: 900_001 });
});

for (const [status, minutes] of [
  ['running', 61],
  ['committing', 61],
  ['receiving', 11],
] as const) {
  it(`fails an import left ${status} ${minutes} minutes ago and imports the new file`, async () => {
    const id = 900_100 + minutes + status.length;
    await leftover(id, status, minutes);
    const state = await h.importFile(ada, jsonFeed(dailyPosts(2)), 'application/json');
    expect(state.status).toBe('complete');
    const old = await h.request('GET', `/imported/archive/${ada.siteId}/import/imp-${id}`, {
      token: ada.token,
    });
    expect(old.json()).toMatchObject({ status: 'failed', error: expect.stringMatching(/interrupted/) });
  });
}
