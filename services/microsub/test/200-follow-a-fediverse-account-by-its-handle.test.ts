// Microsub `follow` with a bare fediverse handle — `@name@host`, `name@host` or `acct:name@host`, as
// people copy them from Mastodon — follows that account the way the feeds follow API does: feeds asks
// the federation service (here a stand-in answering federation.account.resolve) and the account is
// listed among the follows with its card; a handle that names no account is 404, not 400.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { federation } from '@murmur/contracts';
import { notFound } from '@murmur/core';
import { eventually } from '@murmur/testing';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
const asked: string[] = [];
const carol: federation.RemoteAccount = {
  id: federation.REMOTE_ID_BASE + 7,
  handle: 'carol@social.example',
  name: 'Carol',
  url: 'https://social.example/@carol',
  photo: 'https://social.example/carol.png',
  actorId: 'https://social.example/users/carol',
};

beforeAll(async () => {
  h = await startHarness();
  await h.bus.handle(federation.accountResolve, async ({ target }) => {
    asked.push(target);
    if (target.replace(/^@/, '').toLowerCase() === carol.handle) return { account: carol };
    throw notFound('No such user.');
  });
}, 120_000);

afterAll(async () => {
  await h.stop();
});

const follows = async () => ((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items;
const card = { type: 'feed', url: carol.url, name: 'Carol', photo: carol.photo };

it.each(['@carol@social.example', 'carol@social.example', 'acct:carol@social.example'])(
  'follow url=%s: 200 {}, the account listed with its card; unfollow by the same form',
  async (handle) => {
    const res = await h.post({ action: 'follow', url: handle }, h.ann.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(await follows()).toEqual([card]);
    const gone = await h.post({ action: 'unfollow', url: handle }, h.ann.token);
    expect(gone.statusCode).toBe(200);
    expect(await follows()).toEqual([]);
  },
);

it('follow url=@nobody@social.example: 404, nothing followed', async () => {
  const res = await h.post({ action: 'follow', url: '@nobody@social.example' }, h.ann.token);
  expect(res.statusCode).toBe(404);
  expect(await follows()).toEqual([]);
  expect(asked).toContain('@nobody@social.example');
});

it('a boost by the followed account shows as her entry with repost-of and the boosted post in refs', async () => {
  expect((await h.post({ action: 'follow', url: '@carol@social.example' }, h.ann.token)).statusCode).toBe(
    200,
  );
  const dave = { ...carol, id: federation.REMOTE_ID_BASE + 8, handle: 'dave@other.example', name: 'Dave' };
  await h.bus.publish(federation.postReceived, {
    id: federation.REMOTE_ID_BASE + 9,
    author: carol,
    objectId: 'https://social.example/users/carol/statuses/9/activity',
    url: 'https://other.example/@dave/3',
    title: '',
    contentHtml: '<p>Dave’s words</p>',
    contentText: 'Dave’s words',
    publishedAt: new Date().toISOString(),
    photos: [],
    mentions: [],
    inReplyTo: null,
    repostOf: {
      objectId: 'https://other.example/users/dave/statuses/3',
      url: 'https://other.example/@dave/3',
      author: { ...dave, url: 'https://other.example/@dave', photo: '' },
    },
    revision: 1,
  });
  const entry = await eventually(async () => {
    const items = ((await h.get({ action: 'timeline' }, h.ann.token)).json() as any).items;
    return items.find((i: any) => i.url === 'https://other.example/@dave/3');
  }, 60_000);
  expect(entry).toMatchObject({
    author: { type: 'card', name: 'Carol', url: carol.url },
    content: { html: '<p>Dave’s words</p>' },
    'repost-of': ['https://other.example/@dave/3'],
    refs: {
      'https://other.example/@dave/3': {
        type: 'entry',
        url: 'https://other.example/@dave/3',
        author: { type: 'card', name: 'Dave', url: 'https://other.example/@dave', photo: '' },
      },
    },
  });
}, 120_000);
