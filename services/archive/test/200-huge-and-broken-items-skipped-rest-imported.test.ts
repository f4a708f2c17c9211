// Items that cannot become posts are counted in `skipped` and the rest are imported: an item over
// 5 MiB of content, one without id and url, one that is not an object. Whole files that are not
// UTF-8, not JSON or not a JSON Feed fail the import instead.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jsonFeed, wxr } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

it('skips a JSON Feed item over 5 MiB and imports the others', async () => {
  const body = JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'x',
    items: [
      {
        id: 'huge',
        content_html: `<p>${'z'.repeat(5 * 1024 * 1024 + 10)}</p>`,
        date_published: '2019-01-01T00:00:00Z',
      },
      { id: 'ok', content_html: '<p>fine</p>', date_published: '2019-01-02T00:00:00Z' },
      'not an object',
      { title: 'no id, no url' },
    ],
  });
  const state = await h.importFile(ada, body, 'application/json');
  expect(state).toMatchObject({ status: 'complete', imported: 1, skipped: 3 });
  const feed = await h.feed(`/imported/archive/${ada.siteId}/recent.json`);
  expect(feed.items.map((i) => i.id)).toEqual(['ok']);
});

it('skips a WXR post whose content is over 5 MiB without holding it', async () => {
  const bob = await h.createUser('bob');
  const text = wxr([
    { id: 1, title: 'big', content: 'w'.repeat(5 * 1024 * 1024 + 10) },
    { id: 2, title: 'small' },
  ]);
  const state = await h.importFile(bob, text, 'text/xml');
  expect(state).toMatchObject({ status: 'complete', imported: 1, skipped: 1 });
});

it('fails files that are not UTF-8, not JSON or not a JSON Feed', async () => {
  const cases: [string | Buffer, RegExp][] = [
    [
      Buffer.concat([
        Buffer.from('{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}'),
      ]),
      /not valid UTF-8/,
    ],
    ['{"version": ', /not valid JSON/],
    ['{"items": []}', /not a JSON Feed/],
    ['[1, 2]', /not a JSON Feed/],
    [JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', items: {} }), /no items array/],
    [
      `{"version":"https://jsonfeed.org/version/1.1","items":[${'{},'.repeat(2_000_000)}{}]}`,
      /more than 2000000 objects/,
    ],
    [
      `{"version":"https://jsonfeed.org/version/1.1","items":[${'['.repeat(25)}${']'.repeat(25)}]}`,
      /nested deeper than 20 levels/,
    ],
    [
      '{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"a"}],"items":[{"id":"b"}]}',
      /two "items" arrays/,
    ],
    [
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'x'.repeat(1100 * 1024),
        items: [],
      }),
      /more than 1 MiB besides its items/,
    ],
    ['{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"a"} {"id":"b"}]}', /not valid JSON/],
    ['{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"a"}', /not valid JSON/],
  ];
  const carol = await h.createUser('carol');
  for (const [body, reason] of cases) {
    const state = await h.importFile(carol, body, 'application/json');
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(reason);
  }
  expect((await h.request('GET', `/imported/archive/${carol.siteId}/recent.json`)).statusCode).toBe(404);
  // A feed with a BOM is fine.
  const ok = await h.importFile(
    carol,
    '\uFEFF' + jsonFeed([{ id: 1, content_text: 'x' }]),
    'application/json',
  );
  expect(ok.status).toBe('complete');
});
