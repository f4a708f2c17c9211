// The site's h-cards, read by a microformats parser (microformats-parser, as consumers do): the home page
// has exactly one top-level h-card, the representative one (u-uid = u-url = the page's URL, with p-name,
// u-photo, p-note) and a rel="me" link for each of the user's profile links; the posts' authors are
// p-author h-cards of their entries (with the photo), not competing top-level cards. Publishing keeps
// the user's profile from identity's events: a changed profile (evt.identity.user.updated) shows at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mf2 } from 'microformats-parser';
import { identity } from '@murmur/contracts';
import { eventually, sendOverWire } from '@murmur/testing';
import { ADMIN_TOKEN, startHarness, type Account, type Harness } from './harness.js';

type Item = ReturnType<typeof mf2>['items'][number];

let h: Harness;
let ada: Account;
let home: string;
let permalink: string;
const AVATAR = 'https://images.example/ada.png';
const LINKS = ['https://github.com/ada', 'https://mastodon.example/@ada'];

/** A u-photo's URL: parsers give `{value, alt}` for an image with an alt attribute. */
const photoOf = (card: Item): unknown => {
  const photo = card.properties.photo?.[0];
  return typeof photo === 'object' && photo !== null && 'value' in photo ? photo.value : photo;
};
const cardsAtTop = (items: Item[]) => items.filter((i) => i.type?.includes('h-card'));

/** What identity announces when a profile changes, as its outbox sends it. */
async function announceProfile(
  fields: { avatar: string; bio: string; links: string[] },
  at: Date,
  who: Account = ada,
) {
  const name = who === ada ? 'Ada Lovelace' : who.username;
  await h.bus.publish(
    identity.userUpdated,
    {
      user: {
        id: who.id,
        username: who.username,
        email: who.email,
        name,
        fullName: name,
        createdAt: new Date(0).toISOString(),
        ...fields,
      },
    },
    { id: `identity.user.${who.id}.r${at.getTime()}.updated`, occurredAt: at.toISOString() },
  );
}

const pageShows = (path: string, text: string) =>
  eventually(async () => ((await h.get(path)).text.includes(text) ? true : undefined));

beforeAll(async () => {
  // Pages are polled until a change shows: no per-address limit in the way.
  h = await startHarness({ env: { PUBLIC_GETS_PER_MINUTE: '100000' } });
  ada = await h.createUser('ada', { name: 'Ada Lovelace' });
  home = `${h.url}/sites/ada/`;
  const made = await h.call('metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    { title: 'Hello', description: 'Hi.' },
  ]);
  permalink = (await h.call('metaWeblog.getPost', [made.value, 'ada', ada.token])).value.permalink;
  await announceProfile({ avatar: AVATAR, bio: 'Writes about engines.', links: LINKS }, new Date());
  await pageShows('/sites/ada/', AVATAR);
});
afterAll(() => h.stop());

describe('the site home', () => {
  let parsed: ReturnType<typeof mf2>;

  beforeAll(async () => {
    const res = await h.get('/sites/ada/');
    expect(res.statusCode).toBe(200);
    parsed = mf2(res.text, { baseUrl: home });
  });

  it('has exactly one top-level h-card: uid and url the page, name, photo and note', () => {
    const cards = cardsAtTop(parsed.items);
    expect(cards).toHaveLength(1);
    const card = cards[0]!;
    expect(card.properties.uid).toEqual([home]);
    expect(card.properties.url).toEqual([home]);
    expect(card.properties.name).toEqual(['Ada Lovelace']);
    expect(photoOf(card)).toBe(AVATAR);
    expect(card.properties.note).toEqual(['Writes about engines.']);
  });

  it('links each profile with rel="me"', () => {
    expect(parsed.rels.me).toEqual(LINKS);
  });

  it('gives the feed and its entries the author as a nested h-card with the photo, not a top-level one', () => {
    const feed = parsed.items.find((i) => i.type?.includes('h-feed'))!;
    const entry = feed.children!.find((c) => c.type?.includes('h-entry'))!;
    const author = entry.properties.author![0] as Item;
    expect(author.type).toEqual(['h-card']);
    expect(author.properties.name).toEqual(['Ada Lovelace']);
    expect(author.properties.url).toEqual([home]);
    expect(photoOf(author)).toBe(AVATAR);
  });
});

describe('a post page', () => {
  it("names the author as the entry's h-card with name, url and photo", async () => {
    const res = await h.get(new URL(permalink).pathname);
    const parsed = mf2(res.text, { baseUrl: permalink });
    expect(cardsAtTop(parsed.items)).toHaveLength(0);
    const entry = parsed.items.find((i) => i.type?.includes('h-entry'))!;
    const author = entry.properties.author![0] as Item;
    expect(author.properties.name).toEqual(['Ada Lovelace']);
    expect(author.properties.url).toEqual([home]);
    expect(photoOf(author)).toBe(AVATAR);
  });
});

describe("keeping the user's profile", () => {
  it('shows a changed avatar as soon as identity announces it (the operator changes it here)', async () => {
    const res = await sendOverWire(h.url, {
      method: 'PATCH',
      url: `/admin/users/${ada.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { avatar: 'https://images.example/ada-2.png' },
    });
    expect(res.statusCode).toBe(200);
    await pageShows('/sites/ada/', 'https://images.example/ada-2.png');
  });

  it('ignores an announcement older than the profile it has', async () => {
    await announceProfile({ avatar: 'https://images.example/ada-3.png', bio: 'new', links: [] }, new Date());
    await pageShows('/sites/ada/', 'https://images.example/ada-3.png');
    // A redelivered announcement from long ago arrives after it.
    await announceProfile({ avatar: 'https://images.example/stale.png', bio: 'old', links: [] }, new Date(0));
    // One group handles its events in order: once the next one (about another user) shows, the old one
    // has been handled.
    const cyd = await h.createUser('cyd');
    await h.siteOf(cyd.id);
    await announceProfile({ avatar: 'https://images.example/cyd.png', bio: '', links: [] }, new Date(), cyd);
    await pageShows('/sites/cyd/', 'https://images.example/cyd.png');
    const page = (await h.get('/sites/ada/')).text;
    expect(page).toContain('https://images.example/ada-3.png');
    expect(page).not.toContain('stale.png');
  });

  it('a user publishing has never heard of is asked of identity, and shown with the photo identity gives', async () => {
    const bob = await h.createUser('bob', { name: 'Bob' });
    await h.siteOf(bob.id);
    // Forget the copy, as for a user created before publishing kept profiles.
    await h.store.collection('users').deleteMany({ _id: bob.id });
    const res = await h.get('/sites/bob/');
    const card = cardsAtTop(mf2(res.text, { baseUrl: `${h.url}/sites/bob/` }).items)[0]!;
    expect(card.properties.name).toEqual(['Bob']);
    expect(photoOf(card)).toBe(`${h.url}/account/avatar/bob.svg`);
  });
});
