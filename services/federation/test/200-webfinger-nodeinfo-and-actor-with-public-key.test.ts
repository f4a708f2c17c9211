// Discovery as a Mastodon server does it: WebFinger for acct:ada@host names the actor; the actor is a
// Person with inbox, outbox, followers, following, a shared inbox and a public key; NodeInfo 2.1 says
// what this server is.
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { AP, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('WebFinger answers acct:ada@host with the actor as rel=self', async () => {
  const res = await h.get(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:ada@${h.host}`)}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/jrd\+json/);
  const jrd = res.json() as { subject: string; links: { rel: string; type?: string; href: string }[] };
  expect(jrd.subject).toBe(`acct:ada@${h.host}`);
  expect(jrd.links).toContainEqual({
    rel: 'self',
    type: 'application/activity+json',
    href: `${h.url}/ap/users/ada`,
  });
  expect(jrd.links).toContainEqual({
    rel: 'http://webfinger.net/rel/profile-page',
    type: 'text/html',
    href: `${h.url}/ada/`,
  });
});

test('the actor is a Person with every endpoint, not locked, and an RSA public key', async () => {
  const res = await h.get('/ap/users/ada', AP);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/activity\+json/);
  const actor = res.json() as Record<string, any>;
  const id = `${h.url}/ap/users/ada`;
  expect(actor).toMatchObject({
    id,
    type: 'Person',
    preferredUsername: 'ada',
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    url: `${h.url}/ada/`,
    manuallyApprovesFollowers: false,
    endpoints: { sharedInbox: `${h.url}/ap/inbox` },
    publicKey: { id: `${id}#main-key`, owner: id },
  });
  expect(actor['@context']).toContain('https://www.w3.org/ns/activitystreams');
  expect(createPublicKey(actor.publicKey.publicKeyPem).asymmetricKeyType).toBe('rsa');
  // The same key every time (made once, stored).
  const again = (await h.get('/ap/users/ada', AP)).json() as Record<string, any>;
  expect(again.publicKey.publicKeyPem).toBe(actor.publicKey.publicKeyPem);
});

test('NodeInfo 2.1 is linked from /.well-known/nodeinfo and names the software and protocol', async () => {
  const links = (await h.get('/.well-known/nodeinfo')).json() as { links: { rel: string; href: string }[] };
  expect(links.links).toEqual([
    { rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${h.url}/nodeinfo/2.1` },
  ]);
  const res = await h.get('/nodeinfo/2.1');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('profile="http://nodeinfo.diaspora.software/ns/schema/2.1#"');
  expect(res.json()).toMatchObject({
    version: '2.1',
    software: { name: 'murmur' },
    protocols: ['activitypub'],
    openRegistrations: false,
  });
});
