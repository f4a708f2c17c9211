// GET /{username}/ carries ONE representative h-card (microformats wiki, "representative h-card
// parsing": the h-card whose `uid` and `url` are the page's URL): name, photo (the avatar, or the
// generated one), url = uid = the page, note (the bio), nickname, and each of the user's profile links
// as `u-url` with rel="me" — also as <link rel="me"> in the head, so rels.me is exactly their links
// (IndieAuth and fediverse verification read those). Checked with a microformats2 parser.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mf2 } from 'microformats-parser';
import { publishing } from '@murmur/contracts';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
let ada: { id: number; token: string };
const PAGE = 'http://murmur.test/ada/';
const LINKS = ['https://social.example/@ada', 'https://github.com/ada', 'https://ada.example/about'];
beforeAll(async () => {
  h = await startIdentity();
  ada = await h.createUser('ada', 'ada@example.com');
  await h.createUser('bob', 'bob@example.com');
  const res = await h.inject({
    method: 'PATCH',
    url: '/account/me',
    headers: { authorization: `Bearer ${ada.token}` },
    payload: {
      name: 'Ada Lovelace',
      bio: 'Counts things & notes <them>.',
      avatar: 'https://ada.example/me.png',
      links: LINKS,
    },
  });
  if (res.statusCode !== 200) throw new Error(`setup: ${res.statusCode} ${res.body}`);
});
afterAll(() => h.stop());

async function parsePage(username: string) {
  const res = await h.inject({ url: `/${username}/` });
  expect(res.statusCode).toBe(200);
  return { body: res.body, parsed: mf2(res.body, { baseUrl: `http://murmur.test/${username}/` }) };
}

describe('GET /{username}/', () => {
  test('exactly one top-level h-card: name, photo, url = uid = the page, note, links; rels.me = the links', async () => {
    const { parsed } = await parsePage('ada');
    expect(parsed.items).toHaveLength(1);
    const [card] = parsed.items;
    expect(card!.type).toEqual(['h-card']);
    expect(card!.children ?? []).toEqual([]);
    expect(card!.properties.name).toEqual(['Ada Lovelace']);
    expect(card!.properties.photo).toEqual(['https://ada.example/me.png']);
    expect(card!.properties.uid).toEqual([PAGE]);
    expect(card!.properties.url).toEqual([PAGE, ...LINKS]);
    expect(card!.properties.note).toEqual(['Counts things & notes <them>.']);
    expect(card!.properties.nickname).toEqual(['ada']);
    expect(parsed.rels.me).toEqual(LINKS);
  });

  test('the head links each profile with <link rel="me">', async () => {
    const { body } = await parsePage('ada');
    const head = body.slice(0, body.indexOf('</head>'));
    for (const link of LINKS) expect(head).toContain(`<link rel="me" href="${link}" />`);
  });

  test('a user without avatar, bio or links: the generated photo, no note, no rel=me', async () => {
    const { parsed } = await parsePage('bob');
    expect(parsed.items).toHaveLength(1);
    const [card] = parsed.items;
    expect(card!.properties.photo).toEqual(['http://murmur.test/account/avatar/bob.svg']);
    expect(card!.properties.uid).toEqual(['http://murmur.test/bob/']);
    expect(card!.properties.url).toEqual(['http://murmur.test/bob/']);
    expect(card!.properties.note).toBeUndefined();
    expect(parsed.rels.me).toBeUndefined();
  });

  test('links changed through the account API show on the page', async () => {
    await h.inject({
      method: 'PATCH',
      url: '/account/me',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { links: ['https://new.example/@ada'] },
    });
    const { parsed } = await parsePage('ada');
    expect(parsed.rels.me).toEqual(['https://new.example/@ada']);
    expect(parsed.items[0]!.properties.url).toEqual([PAGE, 'https://new.example/@ada']);
  });

  test('with a default site (another `me`): still one h-card whose uid is this page, the site as a url', async () => {
    const site: publishing.Site = {
      id: 7,
      userId: ada.id,
      username: 'ada',
      host: 'ada.example',
      url: 'https://ada.example/',
      isDefault: true,
      createdAt: '2026-11-21T08:30:00+00:00',
    };
    await h.bus.publish(publishing.siteCreated, { site });
    const { parsed } = await eventually(async () => {
      const page = await parsePage('ada');
      return (page.parsed.items[0]?.properties.url ?? []).includes('https://ada.example/') ? page : undefined;
    });
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0]!.properties.uid).toEqual([PAGE]);
    expect(parsed.items[0]!.properties.url).toEqual([
      PAGE,
      'https://new.example/@ada',
      'https://ada.example/',
    ]);
    expect(parsed.rels.me).toEqual(['https://new.example/@ada']);
  });
});
