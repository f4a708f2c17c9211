// Slugs: from the title (or the first five words of an untitled post), ASCII-folded, lower case, other
// characters as "-", at most 60 characters; a clash on the same day gets -2, -3. Permalinks are unique per
// site (another site may use the same path), and fixed once published: a later title change keeps them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
});
afterAll(() => h.stop());

const DAY = new Date(Date.UTC(2025, 5, 15, 12, 0, 0));

async function permalinkOf(who: Account, content: Record<string, string | Date>): Promise<string> {
  const res = await h.call('metaWeblog.newPost', [
    '0',
    who.username,
    who.token,
    { dateCreated: DAY, ...content },
  ]);
  expect(res.fault).toBeUndefined();
  return (await h.call('metaWeblog.getPost', [res.value as number, who.username, who.token])).value.permalink;
}

describe('slugs', () => {
  it('fold, lower-case and dash the title; clashes on one day get -2, -3', async () => {
    const base = `${h.url}/sites/ada/2025/06/15/`;
    expect(await permalinkOf(ada, { title: 'Crème Brûlée — Straße & Ærø!' })).toBe(
      `${base}creme-brulee-strasse-aero.html`,
    );
    expect(await permalinkOf(ada, { title: 'Same' })).toBe(`${base}same.html`);
    expect(await permalinkOf(ada, { title: 'same' })).toBe(`${base}same-2.html`);
    expect(await permalinkOf(ada, { title: 'SAME' })).toBe(`${base}same-3.html`);
    expect(await permalinkOf(ada, { title: 'Same', dateCreated: new Date(Date.UTC(2025, 5, 16)) })).toBe(
      `${h.url}/sites/ada/2025/06/16/same.html`,
    );
  });

  it('untitled posts use their first five words; only symbols → the post id; long titles stop at 60', async () => {
    const base = `${h.url}/sites/ada/2025/06/15/`;
    expect(await permalinkOf(ada, { description: 'Just had the best coffee in town today' })).toBe(
      `${base}just-had-the-best-coffee.html`,
    );
    const symbols = await permalinkOf(ada, { description: '🙂🙂🙂' });
    expect(symbols).toMatch(new RegExp(`^${base}\\d+\\.html$`));
    const long = await permalinkOf(ada, { title: 'word '.repeat(40) });
    expect(new URL(long).pathname.split('/').pop()!.replace('.html', '').length).toBeLessThanOrEqual(60);
  });

  it('the same path on another site is fine; a published post keeps its permalink when retitled', async () => {
    expect(await permalinkOf(bob, { title: 'Same' })).toBe(`${h.url}/sites/bob/2025/06/15/same.html`);
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Fixed', dateCreated: DAY },
    ]);
    const id = res.value as number;
    await h.call('metaWeblog.editPost', [id, 'ada', ada.token, { title: 'Renamed later' }]);
    const post = (await h.call('metaWeblog.getPost', [id, 'ada', ada.token])).value;
    expect(post.permalink).toBe(`${h.url}/sites/ada/2025/06/15/fixed.html`);
    expect((await h.get(new URL(post.permalink).pathname)).text).toContain('Renamed later');
  });
});
