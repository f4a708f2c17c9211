// Micropub requests that must be refused, each with the Recommendation's JSON error ({error,
// error_description}) and nothing stored: no token 401 unauthorized, a bad token 401 invalid_token, a token
// without the action's scope 401 insufficient_scope (the Recommendation's status, 3.8), another user's
// post 403 forbidden, bad input 400 invalid_request naming the property, an over-limit body or file 413.
// A photo URL is fetched only through the safe fetcher: a forbidden address is refused, never fetched.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JPEG, json, startMicropubHarness, type MicropubHarness } from './micropub.js';
import type { Account } from './harness.js';

let m: MicropubHarness;
let token: string;
let ben: Account;
let adaPost: string;
let before: Record<string, number>;

beforeAll(async () => {
  m = await startMicropubHarness({ env: { MEDIA_MAX_BYTES: '100000' } });
  token = m.tokenWith('create update delete media');
  ben = await m.h.createUser('ben');
  await m.h.siteOf(ben.id);
  const res = await m.post(token, { form: { h: 'entry', content: 'Ada’s own' } });
  adaPost = res.headers.location as string;
  before = await m.h.counts();
}, 120_000);
afterAll(() => m.stop());

async function expectRefused(
  res: { statusCode: number; text: string },
  status: number,
  error: string,
  mentions?: string,
) {
  expect(res.statusCode).toBe(status);
  const body = json(res as never);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  if (mentions) expect(body.error_description).toContain(mentions);
  expect(await m.h.counts()).toEqual(before);
}

describe('tokens and scopes', () => {
  it('no token → 401 unauthorized with a Bearer challenge', async () => {
    const res = await m.post(null, { form: { h: 'entry', content: 'x' } });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    await expectRefused(res, 401, 'unauthorized');
  });

  it('an unknown token → 401 invalid_token', async () => {
    await expectRefused(
      await m.post('not-a-token', { form: { h: 'entry', content: 'x' } }),
      401,
      'invalid_token',
    );
  });

  it('GET without a token → 401 too: queries need a token', async () => {
    const res = await m.query(null, { q: 'config' });
    expect(res.statusCode).toBe(401);
  });

  const needs = [
    ['create', 'update delete media', { form: { h: 'entry', content: 'x' } }],
    ['update', 'create delete media', null],
    ['delete', 'create update media', 'delete'],
    ['delete', 'create update media', 'undelete'],
  ] as const;
  for (const [scope, granted, what] of needs) {
    it(`${what === null ? 'update' : typeof what === 'string' ? what : 'create'} without ${scope} → 401 insufficient_scope naming it, nothing changed`, async () => {
      const body =
        what === null
          ? { json: { action: 'update', url: adaPost, replace: { content: ['changed'] } } }
          : typeof what === 'string'
            ? { form: { action: what, url: adaPost } }
            : what;
      const res = await m.post(m.tokenWith(granted), body);
      expect(json(res).scope).toBe(scope);
      expect(res.headers['www-authenticate']).toContain('insufficient_scope');
      await expectRefused(res, 401, 'insufficient_scope');
    });
  }

  it('media upload without media → 401 insufficient_scope', async () => {
    const res = await m.post(
      m.tokenWith('create update delete'),
      { multipart: { files: [{ name: 'file', filename: 'a.jpg', type: 'image/jpeg', bytes: JPEG }] } },
      { path: '/micropub/media' },
    );
    await expectRefused(res, 401, 'insufficient_scope');
  });
});

describe('400 invalid_request naming what is wrong', () => {
  const cases: Array<[string, Parameters<MicropubHarness['post']>[1], string]> = [
    ['an unknown action', { form: { action: 'publish', url: 'x' } }, 'action'],
    ['an update without url', { json: { action: 'update', replace: { content: ['x'] } } }, 'url'],
    ['a delete without url', { form: { action: 'delete' } }, 'url'],
    [
      'an update whose delete is neither list nor object',
      { json: { action: 'update', url: 'x', delete: 'category' } },
      'delete',
    ],
    [
      'a URL that is no post here',
      { json: { action: 'update', url: 'https://elsewhere.example/p', replace: { name: ['x'] } } },
      'url',
    ],
    [
      'a non-http photo URL',
      { json: { type: ['h-entry'], properties: { content: ['x'], photo: ['javascript:alert(1)'] } } },
      'photo',
    ],
    ['a like-of that is not a URL', { form: { h: 'entry', 'like-of': 'not a url' } }, 'like-of'],
    [
      'a property that is not an array (JSON)',
      { json: { type: ['h-entry'], properties: { content: 'x' } } },
      'content',
    ],
    ['an h-event', { form: { h: 'event', name: 'Party' } }, 'h'],
    [
      'a published date that is no date',
      { form: { h: 'entry', content: 'x', published: 'yesterday' } },
      'published',
    ],
    [
      'an unknown post-status',
      { form: { h: 'entry', content: 'x', 'post-status': 'secret' } },
      'post-status',
    ],
    [
      'a syndication target (there are none)',
      { form: { h: 'entry', content: 'x', 'mp-syndicate-to': 'https://twitter.com/' } },
      'mp-syndicate-to',
    ],
    ['an entry with nothing in it', { form: { h: 'entry' } }, 'description'],
  ];
  for (const [what, body, property] of cases) {
    it(`${what} → 400 naming ${property}`, async () => {
      await expectRefused(await m.post(token, body), 400, 'invalid_request', property);
    });
  }

  it('malformed JSON → 400 invalid_request', async () => {
    await expectRefused(
      await m.post(token, { raw: '{"type": ["h-entry"], "properties": ', type: 'application/json' }),
      400,
      'invalid_request',
    );
  });

  it('an unknown query → 400 naming q', async () => {
    const res = await m.query(token, { q: 'everything' });
    expect(res.statusCode).toBe(400);
    expect(json(res).error_description).toContain('q');
  });

  it('a photo URL at a forbidden address (127.0.0.2) is refused by the safe fetcher, never fetched', async () => {
    await expectRefused(
      await m.post(token, { form: { h: 'entry', content: 'x', photo: 'http://127.0.0.2:9/secret.jpg' } }),
      400,
      'invalid_request',
      'photo',
    );
  });

  it('a photo URL that is a web page, not an image → 400 naming photo', async () => {
    await expectRefused(
      await m.post(token, { form: { h: 'entry', content: 'x', photo: `${m.web}/page.html` } }),
      400,
      'invalid_request',
      'photo',
    );
  });
});

describe('someone else’s post', () => {
  it('ben cannot update, delete or read the source of ada’s post: 403 forbidden, nothing changed', async () => {
    const bens = m.tokenWith('create update delete', ben);
    await expectRefused(
      await m.post(bens, { json: { action: 'update', url: adaPost, replace: { content: ['mine now'] } } }),
      403,
      'forbidden',
    );
    await expectRefused(await m.post(bens, { form: { action: 'delete', url: adaPost } }), 403, 'forbidden');
    const res = await m.query(bens, { q: 'source', url: adaPost });
    expect(res.statusCode).toBe(403);
    expect(res.text).not.toContain('Ada’s own');
  });
});

describe('413: too large', () => {
  it('a file over MEDIA_MAX_BYTES → 413, nothing stored', async () => {
    const big = Buffer.concat([JPEG.subarray(0, 12), Buffer.alloc(150_000, 1)]);
    const res = await m.post(token, {
      multipart: {
        fields: { h: 'entry', content: 'big' },
        files: [{ name: 'photo', filename: 'big.jpg', type: 'image/jpeg', bytes: big }],
      },
    });
    await expectRefused(res, 413, 'payload_too_large');
  });

  it('a JSON body over 4 MiB → 413 before it is read', async () => {
    const res = await m.post(token, {
      raw: JSON.stringify({ type: ['h-entry'], properties: { content: ['x'.repeat(5 * 1024 * 1024)] } }),
      type: 'application/json',
    });
    expect(res.statusCode).toBe(413);
    expect(await m.h.counts()).toEqual(before);
  });
});
