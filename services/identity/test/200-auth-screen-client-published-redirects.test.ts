// A redirect_uri on another host (or a custom scheme) is accepted only when the client publishes it
// at its client_id: JSON redirect_uris, <link rel="redirect_uri"> or a Link header. The screen names
// the app from the same page.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import {
  screen,
  signInBrowser,
  startClientSites,
  startIndieAuthIdentity,
  type ClientSites,
} from './indieauth.js';

let h: Harness;
let sites: ClientSites;
let cookie: string;
beforeAll(async () => {
  sites = await startClientSites();
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(async () => {
  await h.stop();
  await sites.stop();
});

const LOGO = 'https://cdn.example/logo.png';

describe('GET /indieauth/auth — redirect_uri published by the client', () => {
  test('JSON metadata document: redirect_uris accepted, client_name and logo_uri shown', async () => {
    const clientId = sites.url('json.test', '/app');
    sites.serve('json.test', '/app', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        client_name: 'Jason Reader',
        logo_uri: LOGO,
        redirect_uris: ['https://elsewhere.test/cb', 'app://signin'],
      }),
    });
    for (const redirect of ['https://elsewhere.test/cb', 'app://signin']) {
      const res = await screen(h, { client_id: clientId, redirect_uri: redirect, scope: 'create' }, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1>Jason Reader</h1>');
      expect(res.body).toContain(`src="${LOGO}"`);
      expect(res.body).toContain(clientId);
    }
  });

  test('JSON document whose client_id is another URL → ignored: cross-host redirect refused', async () => {
    const clientId = sites.url('liar.test', '/');
    sites.serve('liar.test', '/', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'https://other.test/',
        redirect_uris: ['https://elsewhere.test/cb'],
      }),
    });
    const res = await screen(h, { client_id: clientId, redirect_uri: 'https://elsewhere.test/cb' });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  test('HTML page: <link rel="redirect_uri"> accepted; the h-app names the app', async () => {
    const clientId = sites.url('html.test', '/');
    sites.serve('html.test', '/', {
      body: `<!doctype html><html><head><link rel="redirect_uri" href="https://cb.test/done"></head>
        <body><div class="h-app"><img class="u-logo" src="${LOGO}" alt=""><a class="u-url p-name" href="/">Html App</a></div></body></html>`,
    });
    const res = await screen(h, { client_id: clientId, redirect_uri: 'https://cb.test/done' }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Html App</h1>');
    expect(res.body).toContain(`src="${LOGO}"`);
  });

  test('Link: <…>; rel="redirect_uri" header accepted (relative URL resolved against the page)', async () => {
    const clientId = sites.url('header.test', '/');
    sites.serve('header.test', '/', {
      headers: { link: '</x>; rel="other", <https://cb.test/from-header>; rel="redirect_uri"' },
      body: '<p>no markup here</p>',
    });
    expect(
      (await screen(h, { client_id: clientId, redirect_uri: 'https://cb.test/from-header' })).statusCode,
    ).toBe(200);
  });

  test('a redirect on the client’s own origin needs no publishing', async () => {
    const clientId = sites.url('plain.test', '/');
    const res = await screen(
      h,
      { client_id: clientId, redirect_uri: sites.url('plain.test', '/cb?x=1') },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    // Without a name from the client, the screen names its host.
    expect(res.body).toContain(`<h1>plain.test:${sites.port}</h1>`);
  });

  test('the client page is fetched once and then remembered', async () => {
    const clientId = sites.url('cached.test', '/');
    sites.serve('cached.test', '/', { body: '<link rel="redirect_uri" href="https://cb.test/c">' });
    for (let i = 0; i < 3; i++) {
      expect((await screen(h, { client_id: clientId, redirect_uri: 'https://cb.test/c' })).statusCode).toBe(
        200,
      );
    }
    expect(sites.requests('cached.test')).toBe(1);
  });

  test('a client_name with markup is shown as text', async () => {
    const clientId = sites.url('xss.test', '/');
    sites.serve('xss.test', '/', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        client_name: '<script>alert("owned")</script>',
        logo_uri: 'javascript:alert(1)',
      }),
    });
    const res = await screen(h, { client_id: clientId, redirect_uri: sites.url('xss.test', '/cb') }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&#60;script&#62;alert(&#34;owned&#34;)&#60;/script&#62;');
    expect(res.body).not.toContain('javascript:');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src https: data:; frame-ancestors 'none'",
    );
  });
});

describe('GET /indieauth/auth — redirect_uri on another host, not published → 400', () => {
  test.each([
    ['the page publishes nothing', 'quiet.test', { body: '<p>hello</p>' }],
    [
      'the page publishes another URL',
      'other.test',
      { body: '<link rel="redirect_uri" href="https://cb.test/a">' },
    ],
    ['the page is missing', 'gone.test', undefined],
    [
      'the page errors',
      'broken.test',
      { status: 500, body: '<link rel="redirect_uri" href="https://cb.test/b">' },
    ],
  ] as const)('%s', async (_, host, page) => {
    if (page) sites.serve(host, '/', page);
    const res = await screen(h, {
      client_id: sites.url(host, '/'),
      redirect_uri: 'https://cb.test/b',
      state: 's',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('does not publish it');
  });

  test('a custom scheme that the client does not publish', async () => {
    const res = await screen(h, { client_id: sites.url('quiet.test', '/'), redirect_uri: 'app://signin' });
    expect(res.statusCode).toBe(400);
  });

  test('a client_id whose host cannot be reached', async () => {
    const res = await screen(h, { client_id: 'https://nowhere.invalid/', redirect_uri: 'https://cb.test/x' });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});
