// A client's HTML page is read with microformats-parser in identity's parser thread within a time
// budget (CLIENT_PAGE_PARSE_TIMEOUT_MS; shortened here), never on the event loop (docs/security.md,
// "Parsing fetched documents"; issue 37): a page that takes longer to parse published nothing — the
// screen names the client by its client_id and refuses a redirect only that page would have published
// — while a small page within the same budget is read as usual.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';
import { resolveTestHosts, screen, signInBrowser, startClientSites, type ClientSites } from './indieauth.js';

let h: Harness;
let sites: ClientSites;
let cookie: string;
beforeAll(async () => {
  sites = await startClientSites();
  h = await startIdentity(
    { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', INDIEAUTH_REQUIRE_PKCE: 'false' },
    { resolve: resolveTestHosts, clientPageParseTimeoutMs: 300 },
  );
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(async () => {
  await h.stop();
  await sites.stop();
});

const APP = '<div class="h-app"><a class="u-url p-name" href="/">Costly App</a></div>';
const REDIRECT = '<link rel="redirect_uri" href="https://elsewhere.test/cb">';

describe('GET /indieauth/auth — the client page', () => {
  test('480 KB of h-apps: parsed past its budget, so it names nothing and publishes no redirect', async () => {
    const body = `<html><head>${REDIRECT}</head><body>${APP}${'<div class="h-app"><a class="u-url p-name" href="/">x</a><img class="u-logo" src="/l.png"></div>\n'.repeat(5_000)}</body></html>`;
    sites.serve('costly.test', '/', { body });
    const clientId = sites.url('costly.test', '/');
    const same = await screen(
      h,
      { client_id: clientId, redirect_uri: sites.url('costly.test', '/cb') },
      cookie,
    );
    expect(same.statusCode).toBe(200);
    expect(same.body).not.toContain('Costly App');
    expect(same.body).toContain(clientId);
    const elsewhere = await screen(
      h,
      { client_id: clientId, redirect_uri: 'https://elsewhere.test/cb' },
      cookie,
    );
    expect(elsewhere.statusCode).toBe(400);
  }, 60_000);

  test('sanity: a small page within the same budget names the app and publishes its redirect', async () => {
    sites.serve('small.test', '/', { body: `<html><head>${REDIRECT}</head><body>${APP}</body></html>` });
    const res = await screen(
      h,
      { client_id: sites.url('small.test', '/'), redirect_uri: 'https://elsewhere.test/cb' },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Costly App');
  }, 60_000);
});
