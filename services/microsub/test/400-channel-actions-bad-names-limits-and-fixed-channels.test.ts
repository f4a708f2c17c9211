// Bad channel actions get 400 in the Microsub error format ({"error":"invalid_request",
// "error_description": naming the parameter}) and change nothing: a missing, blank, over-long or
// duplicate name; more than 100 channels; renaming, moving or deleting notifications; deleting the
// default channel; an order naming a channel twice, naming none or an unknown one; an unknown method;
// a follow into a channel that holds no follows, or of a feed on the open web into a channel of one's
// own. An unknown channel to rename or delete is 404 not_found.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
let uid: string;

const expect400 = (res: { statusCode: number; json(): unknown }) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  return (res.json() as { error_description: string }).error_description;
};

const form = (pairs: Array<[string, string]>) => h.post(pairs, token);

const uids = async () =>
  ((await h.get({ action: 'channels' }, token)).json() as { channels: { uid: string }[] }).channels.map(
    (c) => c.uid,
  );

beforeAll(async () => {
  h = await startHarness();
  token = h.token(h.ann, ['read', 'follow', 'channels']);
  uid = (
    (
      await form([
        ['action', 'channels'],
        ['name', 'News'],
      ])
    ).json() as { uid: string }
  ).uid;
});

afterAll(async () => {
  await h.stop();
});

it('refuses a missing, blank, over-long, duplicate or control-character name', async () => {
  expect(expect400(await form([['action', 'channels']]))).toMatch(/^name: /);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['name', '   '],
      ]),
    ),
  ).toMatch(/^name: /);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['name', 'x'.repeat(101)],
      ]),
    ),
  ).toMatch(/^name: .*100/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['name', 'news'],
      ]),
    ),
  ).toMatch(/^name: .*already/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['name', 'a\u0007b'],
      ]),
    ),
  ).toMatch(/^name: /);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['channel', uid],
        ['name', 'timeline'],
      ]),
    ),
  ).toMatch(/already/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['channel', uid],
      ]),
    ),
  ).toMatch(/^name: /);
  expect(await uids()).toEqual(['notifications', 'default', 'bookmarks', 'discover', uid]);
});

it('keeps notifications where it is, named as it is, and the default channel undeletable', async () => {
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['channel', 'notifications'],
        ['name', 'Pings'],
      ]),
    ),
  ).toMatch(/notifications/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['method', 'delete'],
        ['channel', 'notifications'],
      ]),
    ),
  ).toMatch(/notifications/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['method', 'delete'],
        ['channel', 'default'],
      ]),
    ),
  ).toMatch(/default/);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['method', 'order'],
        ['channels[]', 'default'],
        ['channels[]', 'notifications'],
      ]),
    ),
  ).toMatch(/notifications/);
  expect(await uids()).toEqual(['notifications', 'default', 'bookmarks', 'discover', uid]);
});

it('refuses an order naming a channel twice, none, or one the user does not have', async () => {
  for (const pairs of [
    [
      ['channels[]', uid],
      ['channels[]', uid],
    ],
    [],
    [
      ['channels[]', 'default'],
      ['channels[]', 'nope'],
    ],
  ] as Array<Array<[string, string]>>) {
    expect(expect400(await form([['action', 'channels'], ['method', 'order'], ...pairs]))).toMatch(
      /^channels: /,
    );
  }
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['method', 'move'],
        ['channel', uid],
      ]),
    ),
  ).toMatch(/^method: /);
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['method', 'delete'],
      ]),
    ),
  ).toMatch(/^channel: /);
  expect(await uids()).toEqual(['notifications', 'default', 'bookmarks', 'discover', uid]);
});

it('answers 404 not_found to renaming or deleting a channel the user does not have', async () => {
  for (const pairs of [
    [
      ['channel', 'nope'],
      ['name', 'X'],
    ],
    [
      ['method', 'delete'],
      ['channel', 'nope'],
    ],
  ] as Array<Array<[string, string]>>) {
    const res = await form([['action', 'channels'], ...pairs]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', error_description: expect.stringMatching(/nope/) });
  }
});

it('refuses follows into channels that hold none, and feeds of the open web outside default', async () => {
  for (const channel of ['notifications', 'discover', 'bookmarks']) {
    expect(
      expect400(
        await form([
          ['action', 'follow'],
          ['channel', channel],
          ['username', 'bob'],
        ]),
      ),
    ).toMatch(/^channel: /);
  }
  expect(
    expect400(
      await form([
        ['action', 'follow'],
        ['channel', uid],
        ['url', 'https://elsewhere.example/feed.xml'],
      ]),
    ),
  ).toMatch(/open web/);
  const nope = await form([
    ['action', 'follow'],
    ['channel', 'nope'],
    ['username', 'bob'],
  ]);
  expect(nope.statusCode).toBe(404);
  expect(((await h.get({ action: 'follow' }, token)).json() as { items: unknown[] }).items).toEqual([]);
});

it('allows at most 100 channels, the four built-in ones included', async () => {
  // News is the fifth; 95 more make 100.
  for (let i = 0; i < 95; i++) {
    const res = await form([
      ['action', 'channels'],
      ['name', `Channel ${i}`],
    ]);
    expect(res.statusCode).toBe(200);
  }
  expect(
    expect400(
      await form([
        ['action', 'channels'],
        ['name', 'One too many'],
      ]),
    ),
  ).toMatch(/100/);
  expect(await uids()).toHaveLength(100);
}, 60_000);
