// The timeline JSON Feed always carries Last-Modified, also when it changed within the current second
// (a follow, a post), so a reader that sends back only If-Modified-Since gets its 304 once nothing has
// changed. Within the second of a change the announced time is the second before it: a client sending
// it back gets the feed again (another change may still come in that second), and from the next
// second on the change's own second, which then answers 304.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { formatHttpDate } from '@murmur/core';
import { TestClock } from '@murmur/testing';
import { startHarness, type Account, type Harness } from './harness.js';

// Ahead of the wall clock, which stamps the user events: the follow below is the timeline's last change.
const T0 = Date.parse('2030-01-01T12:00:00Z');

let h: Harness;
let ada: Account;
const clock = new TestClock(T0);

beforeAll(async () => {
  h = await startHarness({ clock });
  ada = await h.createUser('ada');
  await h.createUser('bob');
});
afterAll(() => h?.stop());

const get = (headers: Record<string, string> = {}) => h.request('GET', '/feeds/ada.json', { headers });

it('sends Last-Modified in the second of a change, and 304 to If-Modified-Since alone once it is over', async () => {
  clock.set(T0 + 200);
  await h.follow(ada, 'bob');

  clock.set(T0 + 600);
  const during = await get();
  expect(during.statusCode).toBe(200);
  const announced = during.headers['last-modified'] as string | undefined;
  expect(announced).toBe(formatHttpDate(new Date(T0 - 1000)));
  // The follow came after that time: the feed, not a 304.
  const again = await get({ 'if-modified-since': announced! });
  expect(again.statusCode).toBe(200);

  clock.set(T0 + 1500);
  const after = await get();
  expect(after.statusCode).toBe(200);
  const lastModified = after.headers['last-modified'] as string;
  expect(lastModified).toBe(formatHttpDate(new Date(T0)));
  const notModified = await get({ 'if-modified-since': lastModified });
  expect(notModified.statusCode).toBe(304);
  expect(notModified.body).toBe('');
  expect(notModified.headers['last-modified']).toBe(lastModified);
  expect((await get({ 'if-modified-since': announced! })).statusCode).toBe(200);
});

it('moves Last-Modified to the second of the next change', async () => {
  clock.set(T0 + 5_300);
  const res = await h.request('POST', '/users/unfollow', { token: ada.token, body: { username: 'bob' } });
  expect(res.statusCode).toBe(200);
  clock.set(T0 + 6_100);
  const lastModified = (await get()).headers['last-modified'] as string;
  expect(lastModified).toBe(formatHttpDate(new Date(T0 + 5_000)));
  expect((await get({ 'if-modified-since': formatHttpDate(new Date(T0)) })).statusCode).toBe(200);
  expect((await get({ 'if-modified-since': lastModified })).statusCode).toBe(304);
});
