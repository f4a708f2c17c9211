// Bad parameters → 400 with the messages of docs/api/archive.md; a site without an archive → 404 on all four
// reads; a site id that is not an integer is no route (404).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.importFile(ada, jsonFeed(dailyPosts(3)), 'application/json');
});
afterAll(() => h?.stop());

const get = (path: string) => h.request('GET', path);

it('refuses offset=-1, offset=x and offset=1.5 with 400', async () => {
  for (const offset of ['-1', 'x', '1.5', '']) {
    const res = await get(`/imported/archive/${ada.siteId}/recent.json?offset=${offset}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'offset must be a non-negative integer' });
  }
});

it('answers 404 "No archive for this site." on all four reads of a site without an archive', async () => {
  const bob = await h.createUser('bob');
  for (const id of [bob.siteId, 987654]) {
    for (const path of ['recent.json', 'search.json?q=x', 'years.json', '2019/4.json']) {
      const res = await get(`/imported/archive/${id}/${path}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'No archive for this site.' });
    }
  }
});

it('answers 404 for a site id that is not an integer, through the gateway and at the service', async () => {
  for (const path of ['recent.json', 'search.json?q=x', 'years.json', '2019/4.json']) {
    expect((await get(`/imported/archive/abc/${path}`)).statusCode).toBe(404);
    const direct = await fetch(`${h.archive.url}/imported/archive/abc/${path}`);
    expect(direct.status).toBe(404);
  }
});

it('refuses search without q, with a blank q, with 201 characters, with 11 terms or only punctuation', async () => {
  const base = `/imported/archive/${ada.siteId}/search.json`;
  const cases: [string, string][] = [
    ['', 'q is required'],
    ['?q=', 'q is required'],
    ['?q=%20%20%20', 'q is required'],
    [`?q=${'a'.repeat(201)}`, 'q must be at most 200 characters'],
    [`?q=${'a b c d e f g h i j k'.replace(/ /g, '%20')}`, 'q must have at most 10 terms'],
    ['?q=%21%3F...%20--', 'q must contain a letter or a digit'],
  ];
  for (const [query, error] of cases) {
    const res = await get(base + query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error });
  }
  // 200 characters (after trimming) is allowed.
  expect((await get(`${base}?q=%20${'a'.repeat(200)}%20`)).statusCode).toBe(200);
});

it('refuses month 0 and 13, and a year that is not four digits, with 400; 404 when not digits', async () => {
  const base = `/imported/archive/${ada.siteId}`;
  for (const path of [
    '2019/13.json',
    '2019/0.json',
    '2019/00.json',
    '2019/123.json',
    '19/4.json',
    '20190/4.json',
  ]) {
    const res = await get(`${base}/${path}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^(month|year) /);
  }
  expect((await get(`${base}/2019/x.json`)).statusCode).toBe(404);
  expect((await get(`${base}/year/4.json`)).statusCode).toBe(404);
});
