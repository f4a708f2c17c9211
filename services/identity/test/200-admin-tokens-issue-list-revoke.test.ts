// Issuing, listing and revoking app tokens through the operator API; revocations are announced.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity } from '@murmur/contracts';
import { sha256Hex } from '@murmur/core';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
let userId: number;
const revoked: Array<{ tokenHash: string; userId: number }> = [];
beforeAll(async () => {
  h = await startIdentity();
  userId = (await h.createUser('ada')).id;
  await h.bus.listen(identity.tokenRevoked, async (event) => {
    revoked.push(event.data);
  });
});
afterAll(() => h.stop());

describe('app tokens in the admin API', () => {
  test('POST /admin/users/{id}/tokens → 201 {id, token, label}; default label "admin"', async () => {
    const labelled = await h.admin('POST', `/admin/users/${userId}/tokens`, { label: 'MarsEdit' });
    expect(labelled.statusCode).toBe(201);
    expect(labelled.json()).toEqual({
      id: 2,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      label: 'MarsEdit',
    });
    const unlabelled = await h.admin('POST', `/admin/users/${userId}/tokens`);
    expect(unlabelled.json()).toMatchObject({ id: 3, label: 'admin' });
    expect((await h.verify(labelled.json().token)).statusCode).toBe(200);
  });

  test('GET /admin/users/{id}/tokens lists them without the tokens themselves', async () => {
    const res = await h.admin('GET', `/admin/users/${userId}/tokens`);
    expect(res.statusCode).toBe(200);
    const { tokens } = res.json();
    expect(tokens).toHaveLength(3);
    expect(tokens[1]).toEqual({
      id: 2,
      label: 'MarsEdit',
      kind: 'app',
      created_at: expect.stringMatching(/\+00:00$/),
      last_used_at: expect.stringMatching(/\+00:00$/), // it was just used at /account/verify
      revoked_at: null,
    });
    expect(Object.keys(tokens[0]).sort()).toEqual([
      'created_at',
      'id',
      'kind',
      'label',
      'last_used_at',
      'revoked_at',
    ]);
  });

  test('DELETE /admin/tokens/{id} → 200 {}; the token stops working; the event carries its hash', async () => {
    const issued = (await h.admin('POST', `/admin/users/${userId}/tokens`, { label: 'old phone' })).json();
    const res = await h.admin('DELETE', `/admin/tokens/${issued.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await h.verify(issued.token)).statusCode).toBe(401);
    const event = await eventually(async () => revoked.find((e) => e.tokenHash === sha256Hex(issued.token)));
    expect(event.userId).toBe(userId);
    const listed = (await h.admin('GET', `/admin/users/${userId}/tokens`)).json().tokens;
    expect(listed.find((t: { id: number }) => t.id === issued.id).revoked_at).toMatch(/\+00:00$/);
  });

  test('POST /admin/tokens/revoke {token} → 200 {} and an event; revoking again is still 200, no second event', async () => {
    const issued = (await h.admin('POST', `/admin/users/${userId}/tokens`)).json();
    expect((await h.admin('POST', '/admin/tokens/revoke', { token: issued.token })).json()).toEqual({});
    await eventually(async () => revoked.find((e) => e.tokenHash === sha256Hex(issued.token)));
    const again = await h.admin('POST', '/admin/tokens/revoke', { token: issued.token });
    expect(again.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(revoked.filter((e) => e.tokenHash === sha256Hex(issued.token))).toHaveLength(1);
  });
});
