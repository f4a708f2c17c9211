// The page at a client_id speaks for that client only when it was served by the client_id's own
// origin. When fetching the client_id ends on another origin (an open redirect on the client's site,
// or a hijacked host it points to), what that origin publishes is ignored: it cannot add redirect URLs.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { screen, startClientSites, startIndieAuthIdentity, type ClientSites } from './indieauth.js';

let h: Harness;
let sites: ClientSites;
beforeAll(async () => {
  sites = await startClientSites();
  h = await startIndieAuthIdentity();
});
afterAll(async () => {
  await h.stop();
  await sites.stop();
});

function metadata(clientId: string, redirect: string) {
  return {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_name: 'Hop', redirect_uris: [redirect] }),
  };
}

describe('GET /indieauth/auth — client_id fetched through a redirect', () => {
  test('to another origin → treated as publishing nothing: cross-host redirect_uri refused', async () => {
    const clientId = sites.url('hop.test', '/app');
    sites.serve('hop.test', '/app', {
      status: 302,
      headers: { location: sites.url('attacker.test', '/meta') },
    });
    sites.serve('attacker.test', '/meta', metadata(clientId, 'https://attacker.test/steal'));
    const res = await screen(h, { client_id: clientId, redirect_uri: 'https://attacker.test/steal' });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain('Hop');
  });

  test('within the same origin → its metadata counts', async () => {
    const clientId = sites.url('moved.test', '/app');
    sites.serve('moved.test', '/app', {
      status: 301,
      headers: { location: sites.url('moved.test', '/app/') },
    });
    sites.serve('moved.test', '/app/', metadata(clientId, 'app://moved/cb'));
    const res = await screen(h, { client_id: clientId, redirect_uri: 'app://moved/cb' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Hop</h1>');
  });
});
