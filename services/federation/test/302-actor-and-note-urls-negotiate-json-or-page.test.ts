// The actor and note URLs negotiate: an ActivityPub Accept gets the JSON document, a browser is sent
// to the existing HTML page (profile page, permalink). The outbox lists public posts as Create(Note),
// paged; followers and following show counts.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { ADA, AP, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.post('published', { id: 7, userId: ADA.id, contentHtml: '<p>Hello fediverse</p>', revision: 1 });
});
afterAll(() => h.stop());

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

test('a browser asking for the actor is sent to the profile page', async () => {
  const res = await h.get('/ap/users/ada', BROWSER);
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`${h.url}/ada/`);
  expect(res.headers.vary).toContain('Accept');
});

test('ld+json with the ActivityStreams profile gets the actor', async () => {
  const res = await h.get('/ap/users/ada', {
    accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  });
  expect(res.statusCode).toBe(200);
  expect((res.json() as { type: string }).type).toBe('Person');
});

test('a note is JSON for ActivityPub and the permalink for a browser', async () => {
  const note = await h.get('/ap/notes/7', AP);
  expect(note.statusCode).toBe(200);
  expect(note.json()).toMatchObject({
    id: `${h.url}/ap/notes/7`,
    type: 'Note',
    attributedTo: `${h.url}/ap/users/ada`,
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    cc: [`${h.url}/ap/users/ada/followers`],
    content: '<p>Hello fediverse</p>',
    url: `${h.url}/sites/ada/2026/11/21/post-7.html`,
    published: '2026-11-21T08:30:00Z',
  });
  const page = await h.get('/ap/notes/7', BROWSER);
  expect(page.statusCode).toBe(302);
  expect(page.headers.location).toBe(`${h.url}/sites/ada/2026/11/21/post-7.html`);
});

test('the outbox counts public posts and pages them as Create(Note)', async () => {
  const outbox = (await h.get('/ap/users/ada/outbox', AP)).json() as Record<string, unknown>;
  expect(outbox).toMatchObject({
    type: 'OrderedCollection',
    totalItems: 1,
    first: `${h.url}/ap/users/ada/outbox?page=1`,
  });
  const page = (await h.get('/ap/users/ada/outbox?page=1', AP)).json() as {
    orderedItems: any[];
    type: string;
  };
  expect(page.type).toBe('OrderedCollectionPage');
  expect(page.orderedItems).toHaveLength(1);
  expect(page.orderedItems[0]).toMatchObject({
    type: 'Create',
    object: { id: `${h.url}/ap/notes/7`, type: 'Note' },
  });
});

test('followers and following show counts', async () => {
  for (const path of ['followers', 'following']) {
    const doc = (await h.get(`/ap/users/ada/${path}`, AP)).json();
    expect(doc).toMatchObject({
      type: 'OrderedCollection',
      totalItems: 0,
      id: `${h.url}/ap/users/ada/${path}`,
    });
  }
});

test('a deleted post is no note any more', async () => {
  await h.post('deleted', { id: 7, userId: ADA.id, revision: 2 });
  expect((await h.get('/ap/notes/7', AP)).statusCode).toBe(404);
  expect(((await h.get('/ap/users/ada/outbox', AP)).json() as { totalItems: number }).totalItems).toBe(0);
});
