// GET /{username}/ — the `me` page: IndieAuth clients discover this server there and check that it
// declares the server that answered.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mf2 } from 'microformats-parser';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

test('200 HTML with an h-card and the three discovery relations, as <link> and as Link header', async () => {
  const res = await h.inject({ url: '/ada/', headers: { host: 'forged.example' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const parsed = mf2(res.body, { baseUrl: 'http://murmur.test/ada/' });
  expect(parsed.rels['indieauth-metadata']).toEqual([
    'http://murmur.test/.well-known/oauth-authorization-server',
  ]);
  expect(parsed.rels['authorization_endpoint']).toEqual(['http://murmur.test/indieauth/auth']);
  expect(parsed.rels['token_endpoint']).toEqual(['http://murmur.test/indieauth/token']);
  expect(parsed.rels['microsub']).toEqual(['http://murmur.test/microsub']);
  expect(parsed.rels['micropub']).toEqual(['http://murmur.test/micropub']);
  const card = parsed.items.find((i) => i.type?.includes('h-card'));
  expect(card?.properties.url).toEqual(['http://murmur.test/ada/']);
  expect(card?.properties.nickname).toEqual(['ada']);
  expect(card?.properties.photo).toEqual(['http://murmur.test/account/avatar/ada.svg']);
  const link = String(res.headers.link);
  expect(link).toContain('<http://murmur.test/indieauth/auth>; rel="authorization_endpoint"');
  expect(link).toContain('<http://murmur.test/indieauth/token>; rel="token_endpoint"');
  expect(link).toContain('<http://murmur.test/microsub>; rel="microsub"');
  expect(link).toContain('<http://murmur.test/micropub>; rel="micropub"');
  expect(link).toContain(
    '<http://murmur.test/.well-known/oauth-authorization-server>; rel="indieauth-metadata"',
  );
});

test('the `me` the token endpoint hands out is this page', async () => {
  const res = await h.inject({ url: '/ada/' });
  expect(res.body).toContain('href="http://murmur.test/ada/"');
});

test('an unknown or malformed username → 404 HTML', async () => {
  for (const url of ['/nobody/', '/Not-A-Name/']) {
    const res = await h.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  }
});
