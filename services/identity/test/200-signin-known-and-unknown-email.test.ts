// POST /account/signin answers the same for known and unknown addresses; only the known one gets mail.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PUBLIC_URL, startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

describe('POST /account/signin', () => {
  test('known and unknown emails get the identical 200 {} and only the known one is mailed', async () => {
    const unknown = await h.signin({ email: 'nobody@example.com' });
    const known = await h.signin({ email: 'ada@example.com' });

    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual({});
    expect(known.body).toBe(unknown.body);
    expect(known.headers['content-type']).toBe(unknown.headers['content-type']);

    const mail = await h.capture.waitFor((m) => m.to.includes('ada@example.com'));
    expect(mail.subject).toBe('Sign in to Murmur');
    expect(mail.from).toBe('murmur@localhost');
    expect(h.capture.messages.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  });

  test('without an app the link is the web sign-in page of the public URL', async () => {
    const mail = await h.signinMail('ada@example.com');
    const token = tokenFromMail(mail);
    expect(mail.links).toContain(`${PUBLIC_URL}/account/signin/web?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the email is matched case-insensitively and with surrounding spaces', async () => {
    const mail = await h.signinMail('ada@example.com', { email: '  ADA@Example.COM ' });
    expect(mail.to).toEqual(['ada@example.com']);
  });

  test('form bodies and query strings work like JSON (mobile apps send forms)', async () => {
    const before = h.capture.messages.length;
    const form = await h.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.7' },
      payload: 'email=ada%40example.com',
    });
    const query = await h.inject({
      method: 'POST',
      url: '/account/signin?email=ada%40example.com',
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    expect([form.statusCode, query.statusCode]).toEqual([200, 200]);
    await h.capture.waitFor(() => h.capture.messages.length >= before + 2);
  });
});
