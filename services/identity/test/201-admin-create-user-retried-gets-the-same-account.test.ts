// A client that retries POST /admin/users after a timeout or a 5xx gets the account it asked for, not a
// 409: the same details again mean the same creation. Other details under a taken name still conflict.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { identity, type EventEnvelope, type PublicUser } from '@murmur/contracts';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
const created: Array<EventEnvelope<{ user: PublicUser }>> = [];
beforeAll(async () => {
  h = await startIdentity();
  await h.bus.listen(identity.userCreated, async (event) => void created.push(event));
});
afterAll(() => h.stop());

const grace = { username: 'grace', email: 'grace@example.com', name: 'Grace' };

test('the same creation twice → 201 both times, one account, each answer with a working token', async () => {
  const first = await h.admin('POST', '/admin/users', grace);
  const again = await h.admin('POST', '/admin/users', { ...grace, email: 'GRACE@example.com ' });
  expect(first.statusCode).toBe(201);
  expect(again.statusCode).toBe(201);
  expect(again.json().id).toBe(first.json().id);
  expect(again.json().token).not.toBe(first.json().token);
  for (const token of [first.json().token, again.json().token]) {
    expect((await h.verify(token)).json()).toMatchObject({ username: 'grace' });
  }
  const list = await h.admin('GET', '/admin/users');
  expect(list.json().users.filter((u: { username: string }) => u.username === 'grace')).toHaveLength(1);
});

test('the account is announced once, however often the creation is retried', async () => {
  await eventually(async () => created.find((e) => e.data.user.username === 'grace'));
  await new Promise((r) => setTimeout(r, 300));
  expect(created.filter((e) => e.data.user.username === 'grace')).toHaveLength(1);
});

test('the same username with another email or name → 409', async () => {
  const otherEmail = await h.admin('POST', '/admin/users', { ...grace, email: 'someone@example.com' });
  const otherName = await h.admin('POST', '/admin/users', { ...grace, name: 'Grace H.' });
  expect(otherEmail.statusCode).toBe(409);
  expect(otherName.statusCode).toBe(409);
});
