// POST /admin/users creates an account with a first app token and announces it on the bus.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity, type EventEnvelope, type PublicUser } from '@murmur/contracts';
import { ADMIN_TOKEN, eventually, PUBLIC_URL, startIdentity, type Harness } from './harness.js';

let h: Harness;
const created: Array<EventEnvelope<{ user: PublicUser }>> = [];
beforeAll(async () => {
  h = await startIdentity();
  await h.bus.listen(identity.userCreated, async (event) => {
    created.push(event);
  });
});
afterAll(() => h.stop());

describe('POST /admin/users', () => {
  test('→ 201 {id, username, email, name, token}; the token works at /account/verify', async () => {
    const res = await h.admin('POST', '/admin/users', {
      username: 'Ada',
      email: ' Ada@Example.com ',
      name: 'Ada L.',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: 1,
      username: 'ada',
      email: 'Ada@Example.com',
      name: 'Ada L.',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const verify = await h.verify(body.token);
    expect(verify.json()).toMatchObject({ token: body.token, username: 'ada', name: 'Ada L.' });
  });

  test('publishes evt.identity.user.created with the public user', async () => {
    const event = await eventually(async () => created.find((e) => e.data.user.username === 'ada'));
    expect(event).toMatchObject({ type: 'identity.user.created', producer: 'identity' });
    expect(event.data.user).toEqual({
      id: 1,
      username: 'ada',
      email: 'Ada@Example.com',
      name: 'Ada L.',
      fullName: '',
      avatar: `${PUBLIC_URL}/account/avatar/ada.svg`,
      bio: '',
      links: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    });
  });

  test('ids count up; name is optional', async () => {
    const res = await h.admin('POST', '/admin/users', { username: 'bob', email: 'bob@example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ id: 2, name: '' });
  });

  test('form bodies work as well (the CLI or curl may send them)', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/admin/users',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'username=carol&email=carol%40example.com',
    });
    expect(res.statusCode).toBe(201);
  });
});
