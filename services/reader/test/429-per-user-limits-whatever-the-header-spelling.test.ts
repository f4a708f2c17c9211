// The per-user limits (subscribe, import, recap) count the verified user, in the store: however the
// client spells `Authorization` (scheme case, spaces, Bearer or Basic), one user has one count, and
// another user has a count of her own.
import { describe, expect, test } from '@jest/globals';
import type { FeedServer } from './feed-server.js';
import { basic, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

useReaderWithFeedServer(
  (started) => {
    ({ h, feeds, ann } = started);
  },
  {
    READER_SUBSCRIBE_LIMIT_PER_MINUTE: '3',
    READER_IMPORT_LIMIT_PER_HOUR: '2',
    READER_RECAP_LIMIT_PER_MINUTE: '2',
  },
);

const spellings = (user: TestUser): Array<Record<string, string>> => [
  { authorization: `Bearer ${user.token}` },
  { authorization: `bEaReR ${user.token}` },
  { authorization: `BEARER \t${user.token}  ` },
  basic(user.username, user.token),
  basic(`${user.username}@example.com`, user.token),
];

describe('subscription creates', () => {
  test('the fourth create in a minute is 429 whatever the spelling; the user next door is not counted', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (const headers of spellings(ann)) {
      const res = await h.req(
        null,
        'POST',
        '/feeds/v2/subscriptions.json',
        { feed_url: feeds.url('/rss2.xml') },
        headers,
      );
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter ??= res.headers['retry-after'] as string;
    }
    expect(statuses).toEqual([200, 302, 302, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);

    const bob = h.identity.addUser('bob');
    expect(
      (await h.req(bob, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url('/rss2.xml') }))
        .statusCode,
    ).toBe(200);

    // The window is a minute on the process clock.
    h.clock.advance(61_000);
    expect(
      (
        await h.req(
          null,
          'POST',
          '/feeds/v2/subscriptions.json',
          { feed_url: feeds.url('/rss2.xml') },
          spellings(ann)[1],
        )
      ).statusCode,
    ).toBe(302);
  });
});

describe('OPML imports and recaps', () => {
  test('imports: the third in an hour is 429 however the header is spelled', async () => {
    const opml = '<?xml version="1.0"?><opml version="2.0"><head/><body></body></opml>';
    const [first, second, third] = spellings(ann);
    const send = (headers: Record<string, string>) =>
      h.req(null, 'POST', '/feeds/v2/imports.json', opml, { ...headers, 'content-type': 'text/xml' });
    expect((await send(first!)).statusCode).toBe(200);
    expect((await send(second!)).statusCode).toBe(200);
    const over = await send(third!);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });

  test('recaps: the third in a minute is 429 however the header is spelled', async () => {
    const [id] = (await h.get(ann, '/feeds/v2/unread_entries.json')).json() as number[];
    const [first, , , fourth, fifth] = spellings(ann);
    const send = (headers: Record<string, string>) => h.req(null, 'POST', '/feeds/recap', [id], headers);
    expect((await send(first!)).statusCode).toBe(202);
    expect([200, 202]).toContain((await send(fourth!)).statusCode);
    const over = await send(fifth!);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'Too many requests. Try again later.' });
  });
});
