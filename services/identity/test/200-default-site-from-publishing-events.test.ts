// Publishing owns sites; identity keeps a copy of each user's default site from publishing's events,
// so the account object reports it and IndieAuth's `me` becomes the site's address (docs/api/identity.md).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { publishing } from '@murmur/contracts';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
let ada: { id: number; token: string };
beforeAll(async () => {
  h = await startIdentity();
  ada = await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

const site = (over: Partial<publishing.Site> = {}): publishing.Site => ({
  id: 7,
  userId: ada.id,
  username: 'ada',
  host: 'murmur.test',
  url: 'http://murmur.test/sites/ada/',
  isDefault: true,
  createdAt: '2026-11-21T08:30:00+00:00',
  ...over,
});

const me = async () =>
  (await h.inject({ url: '/account/me', headers: { authorization: `Bearer ${ada.token}` } })).json();

test('before any site event the account is site-less and me is the profile page', async () => {
  expect(await me()).toMatchObject({ has_site: false, default_site: '' });
});

test('site.created → has_site, default_site (host); site.updated with a new host → the copy follows', async () => {
  await h.bus.publish(publishing.siteCreated, { site: site() });
  await eventually(async () => ((await me()).has_site ? true : undefined));
  expect(await me()).toMatchObject({ has_site: true, default_site: 'murmur.test' });

  await h.bus.publish(publishing.siteUpdated, {
    site: site({ host: 'ada.example', url: 'https://ada.example/' }),
  });
  await eventually(async () => ((await me()).default_site === 'ada.example' ? true : undefined));
});

test('a site that is not the default one changes nothing', async () => {
  await h.bus.publish(publishing.siteCreated, {
    site: site({ id: 8, isDefault: false, host: 'other.example' }),
  });
  await new Promise((r) => setTimeout(r, 200));
  expect((await me()).default_site).toBe('ada.example');
});
