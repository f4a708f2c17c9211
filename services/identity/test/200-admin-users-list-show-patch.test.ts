// Listing, showing and editing users through the operator API; no secret ever appears.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity, type EventEnvelope, type PublicUser } from '@murmur/contracts';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
const tokens: string[] = [];
const updated: Array<EventEnvelope<{ user: PublicUser }>> = [];
beforeAll(async () => {
  h = await startIdentity();
  for (const name of ['ada', 'bob', 'carol']) tokens.push((await h.createUser(name)).token);
  await h.bus.listen(identity.userUpdated, async (event) => {
    updated.push(event);
  });
});
afterAll(() => h.stop());

describe('GET /admin/users', () => {
  test('lists users in id order without secrets', async () => {
    const res = await h.admin('GET', '/admin/users');
    expect(res.statusCode).toBe(200);
    const { users } = res.json();
    expect(users.map((u: { username: string }) => u.username)).toEqual(['ada', 'bob', 'carol']);
    expect(users[0]).toEqual({
      id: 1,
      username: 'ada',
      email: 'ada@example.com',
      name: '',
      full_name: '',
      bio: '',
      avatar: '',
      links: [],
      plan: 'free',
      plans: ['free'],
      apple_linked: false,
      created_at: expect.stringMatching(/\+00:00$/),
    });
    for (const token of tokens) expect(res.body).not.toContain(token);
  });

  test('limit and offset page through them', async () => {
    const res = await h.admin('GET', '/admin/users?limit=1&offset=1');
    expect(res.json().users.map((u: { username: string }) => u.username)).toEqual(['bob']);
  });

  test('a limit over 1000 is clamped, not refused', async () => {
    expect((await h.admin('GET', '/admin/users?limit=5000')).statusCode).toBe(200);
  });
});

describe('GET and PATCH /admin/users/{id}', () => {
  test('shows one user', async () => {
    const res = await h.admin('GET', '/admin/users/2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 2, username: 'bob' });
  });

  test('PATCH changes the given fields only, publishes evt.identity.user.updated', async () => {
    const res = await h.admin('PATCH', '/admin/users/2', { full_name: 'Bob Builder', plans: 'free,pro' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: '',
      full_name: 'Bob Builder',
      plan: 'free',
      plans: ['free', 'pro'],
    });
    const event = await eventually(async () => updated.find((e) => e.data.user.id === 2));
    expect(event.data.user.fullName).toBe('Bob Builder');
  });

  test('PATCH links → the user with its links, announced with them', async () => {
    const before = updated.length;
    const links = ['https://social.example/@carol', 'https://carol.example/'];
    const res = await h.admin('PATCH', '/admin/users/3', { links: [...links, links[0]] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'carol', links });
    expect((await h.admin('GET', '/admin/users/3')).json().links).toEqual(links);
    const event = await eventually(async () => updated.slice(before).find((e) => e.data.user.id === 3));
    expect(event.data.user.links).toEqual(links);
  });

  test('an empty string clears a field', async () => {
    await h.admin('PATCH', '/admin/users/2', { bio: 'Builds' });
    const res = await h.admin('PATCH', '/admin/users/2', { bio: '' });
    expect(res.json().bio).toBe('');
  });
});
