// Discovery's refusals: WebFinger without a resource or with a malformed one (400), for another host or
// a user who does not exist (404); unknown actors and notes (404).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { AP, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('WebFinger without resource → 400 naming it', async () => {
  const res = await h.get('/.well-known/webfinger');
  expect(res.statusCode).toBe(400);
  expect((res.json() as { error: string }).error).toContain('resource');
});

test('WebFinger with a resource that is no account or URL → 400', async () => {
  expect((await h.get('/.well-known/webfinger?resource=not%20an%20account')).statusCode).toBe(400);
});

test('WebFinger for another host or an unknown user → 404', async () => {
  expect((await h.get('/.well-known/webfinger?resource=acct:ada@elsewhere.example')).statusCode).toBe(404);
  expect((await h.get(`/.well-known/webfinger?resource=acct:nobody@${h.host}`)).statusCode).toBe(404);
});

test('unknown actor and unknown note → 404', async () => {
  expect((await h.get('/ap/users/nobody', AP)).statusCode).toBe(404);
  expect((await h.get('/ap/notes/999', AP)).statusCode).toBe(404);
  expect((await h.get('/ap/notes/abc', AP)).statusCode).toBe(404);
});
