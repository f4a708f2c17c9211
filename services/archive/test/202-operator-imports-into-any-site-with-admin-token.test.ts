// The operator (`murmur archive import`, Bearer $MURMUR_ADMIN_TOKEN) may import into any existing site
// and follow the import; an unknown site is still 404.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { ADMIN_TOKEN, eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

const post = (site: number) =>
  h.request('POST', `/imported/archive/${site}/import`, {
    token: ADMIN_TOKEN,
    body: jsonFeed(dailyPosts(4)),
    headers: { 'content-type': 'application/json' },
  });

it("imports into a user's site with the admin token, and reports the import to the operator", async () => {
  const res = await post(ada.siteId);
  expect(res.statusCode).toBe(202);
  const id = res.json().id as string;
  const state = await eventually(async () => {
    const s = await h.request('GET', `/imported/archive/${ada.siteId}/import/${id}`, { token: ADMIN_TOKEN });
    expect(s.statusCode).toBe(200);
    return s.json().status === 'complete' ? s.json() : undefined;
  });
  expect(state).toMatchObject({ imported: 4 });
  // The owner sees it too.
  expect((await h.waitImport(ada, id)).status).toBe('complete');
  expect((await h.feed(`/imported/archive/${ada.siteId}/recent.json`)).items).toHaveLength(4);
});

it('answers 404 for an unknown site and 401 for a wrong admin token', async () => {
  expect((await post(424242)).statusCode).toBe(404);
  const wrong = await h.request('POST', `/imported/archive/${ada.siteId}/import`, {
    token: `${ADMIN_TOKEN}x`,
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  expect(wrong.statusCode).toBe(401);
});
