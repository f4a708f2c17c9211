// Site id resolution: "0", 0, the user's own site id (string or int) and the user's username all name
// the default site; another user's site is fault 401; an unknown site id is fault 404. Nothing is stored
// by a refused call.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;
let adaSite: number;
let bobSite: number;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  adaSite = (await h.siteOf(ada.id))._id;
  bobSite = (await h.siteOf(bob.id))._id;
});
afterAll(() => h.stop());

const content = { description: 'hello' };

describe('site id', () => {
  it.each([
    ['"0"', () => '0'],
    ['0 as an int', () => 0],
    ['the site id as a string', () => String(adaSite)],
    ['the site id as an int', () => adaSite],
    ['the username', () => 'ada'],
  ])('%s names the default site', async (_what, ref) => {
    const res = await h.call('metaWeblog.newPost', [ref(), 'ada', ada.token, content]);
    expect(res.fault).toBeUndefined();
    const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(got.value.permalink).toContain('/sites/ada/');
  });

  it('of another user → fault 401, by id or by username', async () => {
    const before = await h.counts();
    for (const ref of [String(bobSite), bobSite, 'bob']) {
      const res = await h.call('metaWeblog.newPost', [ref, 'ada', ada.token, content]);
      expect(res.fault?.faultCode).toBe(401);
    }
    const media = await h.call('metaWeblog.newMediaObject', [
      String(bobSite),
      'ada',
      ada.token,
      { name: 'a.png', type: 'image/png', bits: Buffer.from('x') },
    ]);
    expect(media.fault?.faultCode).toBe(401);
    expect(await h.counts()).toEqual(before);
  });

  it('unknown → fault 404', async () => {
    const before = await h.counts();
    for (const ref of ['999999', 'nobody-here', 'nosuchuser']) {
      const res = await h.call('metaWeblog.newPost', [ref, 'ada', ada.token, content]);
      expect(res.fault?.faultCode).toBe(404);
    }
    const list = await h.call('metaWeblog.getCategories', ['4242', 'ada', ada.token]);
    expect(list.fault?.faultCode).toBe(404);
    expect(await h.counts()).toEqual(before);
  });
});
