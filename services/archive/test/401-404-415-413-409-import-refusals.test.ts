// Who may import and what: no token → 401; another user's site or an unknown one → 404; a body of
// another type → 415; over the size cap → 413; a second import while one is under way → 409 (and the
// site is free again afterwards). Import status is the owner's alone.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { dailyPosts, jsonFeed } from './fixtures.js';
import { eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness({ env: { ARCHIVE_IMPORT_MAX_BYTES: '200000' } });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
});
afterAll(() => h?.stop());

const feed = jsonFeed(dailyPosts(2));

it('answers 401 without a token or with a bad one', async () => {
  const path = `/imported/archive/${ada.siteId}/import`;
  const none = await h.request('POST', path, { body: feed, headers: { 'content-type': 'application/json' } });
  expect(none.statusCode).toBe(401);
  expect(none.json()).toEqual({ error: expect.any(String) });
  const bad = await h.request('POST', path, {
    token: 'not-a-token',
    body: feed,
    headers: { 'content-type': 'application/json' },
  });
  expect(bad.statusCode).toBe(401);
});

it("answers 404 for another user's site and for an unknown site", async () => {
  const other = await h.upload(bob, feed, 'application/json', ada.siteId);
  expect(other.statusCode).toBe(404);
  expect(other.json()).toEqual({ error: 'No such site.' });
  const unknown = await h.upload(bob, feed, 'application/json', 99999);
  expect(unknown.statusCode).toBe(404);
  expect(unknown.json()).toEqual({ error: 'No such site.' });
  // Nothing was imported into Ada's site.
  expect((await h.request('GET', `/imported/archive/${ada.siteId}/recent.json`)).statusCode).toBe(404);
});

it('answers 415 for a text/plain body and other unsupported types', async () => {
  for (const type of ['text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x']) {
    const res = await h.upload(ada, feed, type);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: expect.stringContaining('JSON Feed') });
  }
});

it('answers 413 for a body over the cap, declared or streamed, and frees the site', async () => {
  const big = jsonFeed([{ id: 'x', content_text: 'y'.repeat(300_000) }]);
  const declared = await fetch(`${h.archive.url}/imported/archive/${ada.siteId}/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
    body: big,
  });
  expect(declared.status).toBe(413);
  // Chunked, no length announced: cut off while streaming.
  const chunked = await new Promise<number>((resolve, reject) => {
    const url = new URL(`${h.archive.url}/imported/archive/${ada.siteId}/import`);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    for (let i = 0; i < 30; i++) req.write('x'.repeat(10_000));
    req.end();
  });
  expect(chunked).toBe(413);
  const ok = await h.importFile(ada, feed, 'application/json');
  expect(ok.status).toBe('complete');
});

it('answers 409 while another import of the site is under way, and accepts one afterwards', async () => {
  // An upload that has started but not finished holds the site.
  const url = new URL(`${h.archive.url}/imported/archive/${bob.siteId}/import`);
  let finish: () => void = () => undefined;
  const first = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${bob.token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(feed)),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(feed.slice(0, 10));
    finish = () => req.end(feed.slice(10));
  });
  const second = await eventually(async () => {
    const res = await h.upload(bob, feed, 'application/json');
    return res.statusCode === 409 ? res : undefined;
  });
  expect(second.json()).toEqual({ error: 'An import is already running.' });
  finish();
  const answered = await first;
  expect(answered.status).toBe(202);
  const id = JSON.parse(answered.body).id as string;
  expect((await h.waitImport(bob, id)).status).toBe('complete');
  const next = await h.upload(bob, feed, 'application/json');
  expect(next.statusCode).toBe(202);
  await h.waitImport(bob, next.json().id);
});

it('answers 400 to an import without a body, and frees the site', async () => {
  const res = await h.request('POST', `/imported/archive/${ada.siteId}/import`, {
    token: ada.token,
    headers: { 'content-type': 'application/json' },
  });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ error: 'The import needs a body.' });
  expect((await h.upload(ada, feed, 'application/json')).statusCode).toBe(202);
});

it("answers 404 for an import status of another user's or another site's import, or a bad id", async () => {
  const res = await h.upload(ada, feed, 'application/json');
  const id = res.json().id as string;
  await h.waitImport(ada, id);
  const get = (who: Account, site: number, which: string) =>
    h.request('GET', `/imported/archive/${site}/import/${which}`, { token: who.token });
  expect((await get(bob, ada.siteId, id)).statusCode).toBe(404);
  expect((await get(ada, bob.siteId, id)).statusCode).toBe(404);
  expect((await get(ada, ada.siteId, 'imp-999999')).statusCode).toBe(404);
  expect((await get(ada, ada.siteId, 'nonsense')).statusCode).toBe(404);
  expect((await h.request('GET', `/imported/archive/${ada.siteId}/import/${id}`)).statusCode).toBe(401);
});
