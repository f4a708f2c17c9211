// Bad input gets 400 invalid_request (or invalid_cursor) with an error_description naming the problem,
// and changes no stored state.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { at, startHarness, type Harness } from './harness.js';

let h: Harness;

const expect400 = (res: { statusCode: number; json(): unknown }, error = 'invalid_request') => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ error, error_description: expect.any(String) });
  return (res.json() as { error_description: string }).error_description;
};

beforeAll(async () => {
  h = await startHarness();
  for (let id = 1; id <= 5; id++) await h.publish({ id, userId: h.ann.id, publishedAt: at(id) });
});

afterAll(async () => {
  await h.stop();
});

it('refuses a missing or unknown action, on GET and POST', async () => {
  expect(expect400(await h.get({}, h.ann.token))).toMatch(/action/);
  expect(expect400(await h.get({ action: 'dance' }, h.ann.token))).toMatch(/dance/);
  expect(expect400(await h.post({ channel: 'default' }, h.ann.token))).toMatch(/action/);
  expect(expect400(await h.post({ action: 'dance' }, h.ann.token))).toMatch(/dance/);
});

it('refuses mute, unmute, block and unblock as not supported', async () => {
  for (const action of ['mute', 'unmute', 'block', 'unblock']) {
    expect(expect400(await h.post({ action, url: 'https://bob.example/' }, h.ann.token))).toMatch(
      /not supported/,
    );
  }
});

it('refuses limit=0, limit=x and limit=-1, and clamps limit=500', async () => {
  for (const limit of ['0', 'x', '-1', '1.5']) {
    expect(expect400(await h.get({ action: 'timeline', limit }, h.ann.token))).toMatch(/limit/);
  }
  expect((await h.get({ action: 'timeline', limit: '500' }, h.ann.token)).statusCode).toBe(200);
});

it('refuses a garbage cursor with invalid_cursor, and before with after', async () => {
  expect400(await h.get({ action: 'timeline', before: 'garbage' }, h.ann.token), 'invalid_cursor');
  expect400(await h.get({ action: 'timeline', after: 'garbage!' }, h.ann.token), 'invalid_cursor');
  expect400(await h.get({ action: 'timeline', before: 'x'.repeat(400) }, h.ann.token));
  // A well-formed position with a hint feeds did not give out.
  expect400(await h.get({ action: 'timeline', before: 'abc.1.notacursor' }, h.ann.token), 'invalid_cursor');
  const page = (await h.get({ action: 'timeline', limit: '2' }, h.ann.token)).json() as any;
  expect(
    expect400(
      await h.get({ action: 'timeline', before: page.paging.before, after: page.paging.after }, h.ann.token),
    ),
  ).toMatch(/before and after/);
});

it('refuses is_read that is not a boolean', async () => {
  expect(expect400(await h.get({ action: 'timeline', is_read: 'maybe' }, h.ann.token))).toMatch(/is_read/);
});

it('refuses a timeline write without method, with an unknown one (move) or without entries', async () => {
  expect(expect400(await h.post({ action: 'timeline', entry: '1' }, h.ann.token))).toMatch(/method/);
  expect(expect400(await h.post({ action: 'timeline', method: 'move', entry: '1' }, h.ann.token))).toMatch(
    /move/,
  );
  for (const method of ['mark_read', 'mark_unread', 'remove']) {
    expect(expect400(await h.post({ action: 'timeline', method }, h.ann.token))).toMatch(/entry/);
  }
  expect400(await h.postJson({ action: 'timeline', method: 'mark_read', entry: [{ a: 1 }] }, h.ann.token));
  const many = Array.from({ length: 1001 }, (_, i) => String(i + 1));
  expect(
    expect400(await h.postJson({ action: 'timeline', method: 'remove', entry: many }, h.ann.token)),
  ).toMatch(/at most 1000/);
  // Nothing was marked or removed by the refused requests.
  const items = ((await h.get({ action: 'timeline' }, h.ann.token)).json() as any).items;
  expect(items.map((i: any) => i._id)).toEqual(['5', '4', '3', '2', '1']);
});

it('refuses follow without url or username, of self, to another channel, and of a non-URL', async () => {
  expect(expect400(await h.post({ action: 'follow' }, h.ann.token))).toMatch(/url or username/);
  expect(expect400(await h.post({ action: 'follow', username: 'ann' }, h.ann.token))).toMatch(/yourself/);
  expect(
    expect400(await h.post({ action: 'follow', username: 'bob', channel: 'notifications' }, h.ann.token)),
  ).toMatch(/channel/);
  expect(expect400(await h.post({ action: 'follow', url: 'not a url' }, h.ann.token))).toMatch(/url/);
  expect(expect400(await h.post({ action: 'unfollow', url: 'ftp://bob.example/' }, h.ann.token))).toMatch(
    /url/,
  );
  expect(((await h.get({ action: 'follow' }, h.ann.token)).json() as any).items).toEqual([]);
});
