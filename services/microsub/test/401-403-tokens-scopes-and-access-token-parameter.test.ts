// Authentication through the platform: no token → 401 unauthorized, unknown or revoked → 401
// invalid_token (both with WWW-Authenticate: Bearer), a token lacking the action's scope → 403
// insufficient_scope naming it; `access_token` as a query or form parameter works; app tokens and
// `create` tokens may do everything.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

it('answers 401 unauthorized with a Bearer challenge when no token is given', async () => {
  for (const res of [
    await h.get({ action: 'channels' }),
    await h.post({ action: 'follow', username: 'bob' }),
  ]) {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', error_description: expect.any(String) });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  }
});

it('answers 401 invalid_token for an unknown token and for a revoked one', async () => {
  const unknown = await h.get({ action: 'channels' }, 'no-such-token');
  expect(unknown.statusCode).toBe(401);
  expect(unknown.json()).toMatchObject({ error: 'invalid_token' });
  expect(unknown.headers['www-authenticate']).toMatch(/^Bearer/);
  const token = h.token(h.ann, ['read']);
  expect((await h.get({ action: 'channels' }, token)).statusCode).toBe(200);
  await h.fake.revoke(token);
  const revoked = await h.get({ action: 'channels' }, token);
  expect(revoked.statusCode).toBe(401);
  expect(revoked.json()).toMatchObject({ error: 'invalid_token' });
});

it('takes the token from an access_token query or form parameter', async () => {
  const token = h.token(h.ann, ['read', 'follow']);
  const query = await h.get({ action: 'channels', access_token: token });
  expect(query.statusCode).toBe(200);
  const form = await h.post({ action: 'timeline', method: 'mark_read', entry: '1', access_token: token });
  expect(form.statusCode).toBe(200);
  const bad = await h.get({ action: 'channels', access_token: 'nope' });
  expect(bad.statusCode).toBe(401);
});

it('refuses a profile-only token with 403 insufficient_scope naming read', async () => {
  const token = h.token(h.ann, ['profile']);
  const res = await h.get({ action: 'channels' }, token);
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({
    error: 'insufficient_scope',
    error_description: expect.any(String),
    scope: 'read',
  });
  const post = await h.post({ action: 'timeline', method: 'mark_read', entry: '1' }, token);
  expect(post.statusCode).toBe(403);
  expect(post.json()).toMatchObject({ scope: 'read' });
});

it('refuses follow and unfollow with a read-only token (403 naming follow)', async () => {
  const token = h.token(h.ann, ['read']);
  for (const action of ['follow', 'unfollow']) {
    const res = await h.post({ action, username: 'bob' }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'insufficient_scope', scope: 'follow' });
  }
  // A follow-only token may follow but not read.
  const followOnly = h.token(h.ann, ['follow']);
  expect((await h.post({ action: 'follow', username: 'bob' }, followOnly)).statusCode).toBe(200);
  expect((await h.get({ action: 'follow' }, followOnly)).statusCode).toBe(403);
});

it('lets a create token and an app token read and follow', async () => {
  for (const token of [h.token(h.ann, ['create']), h.ann.token]) {
    expect((await h.get({ action: 'channels' }, token)).statusCode).toBe(200);
    expect((await h.get({ action: 'timeline' }, token)).statusCode).toBe(200);
    expect((await h.post({ action: 'follow', username: 'cat' }, token)).statusCode).toBe(200);
    expect((await h.post({ action: 'unfollow', username: 'cat' }, token)).statusCode).toBe(200);
  }
});

it('answers the same way on microsub itself, without the gateway', async () => {
  const res = await sendOverWire(h.microsub.url, { method: 'GET', url: '/microsub?action=channels' });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ error: 'unauthorized' });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  expect(res.headers['access-control-allow-origin']).toBe('*');
});
