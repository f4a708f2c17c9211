// An unknown username is a 404 with an `{error}` body on every per-user public feed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.createUser('ada');
});
afterAll(() => h?.stop());

it.each(['/feeds/nobody.json', '/feeds/nobody/mentions.json', '/feeds/nobody/webmentions.json'])(
  '%s → 404 No such user.',
  async (path) => {
    const res = await h.request('GET', path);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ error: 'No such user.' });
  },
);

it('knows users created before it saw their event (asks identity)', async () => {
  // Without feeds' copy of ada (as for a user created before feeds first started), identity is asked.
  await h.store.collection('users').deleteMany({});
  expect((await h.request('GET', '/feeds/ada/webmentions.json')).statusCode).toBe(200);
  expect(await h.store.collection('users').countDocuments({ username: 'ada' })).toBe(1);
});
