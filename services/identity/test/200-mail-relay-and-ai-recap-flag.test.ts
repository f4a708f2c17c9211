// Identity sends mail for other services (identity.mail.send) and reports the reader's AI recap
// setting in the account object (is_using_ai); without a reader the flag is false.
import { afterEach, expect, test } from '@jest/globals';
import { mail, reader } from '@murmur/contracts';
import { startIdentity, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

test('a message handed over the bus is accepted at once and delivered over SMTP', async () => {
  h = await startIdentity();
  const answer = await h.bus.request(mail.mailSend, {
    to: 'ada@example.com',
    subject: 'Your weekly recap',
    text: 'Three entries this week.',
    html: '<!doctype html><p>Three entries this week.</p>',
  });
  expect(answer).toEqual({ accepted: true });
  const received = await h.capture.waitFor((m) => m.subject === 'Your weekly recap');
  expect(received.to).toEqual(['ada@example.com']);
  expect(received.text).toContain('Three entries this week.');
});

test('an invalid message is refused with 400 and nothing is sent', async () => {
  h = await startIdentity();
  await expect(
    h.bus.request(mail.mailSend, { to: 'not-an-address', subject: 'x', text: '', html: '' } as never),
  ).rejects.toThrow();
  await new Promise((r) => setTimeout(r, 200));
  expect(h.capture.messages).toHaveLength(0);
});

test('is_using_ai follows the reader; false when no reader answers', async () => {
  h = await startIdentity();
  const { token } = await h.createUser('ada', 'ada@example.com');
  const me = async () =>
    (await h!.inject({ url: '/account/me', headers: { authorization: `Bearer ${token}` } })).json();
  expect((await me()).is_using_ai).toBe(false);

  const other = await startIdentity();
  try {
    await other.bus.handle(reader.recapCapabilities, async () => ({ usingAi: true }));
    const grace = await other.createUser('grace', 'grace@example.com');
    const res = await other.inject({
      url: '/account/me',
      headers: { authorization: `Bearer ${grace.token}` },
    });
    expect(res.json().is_using_ai).toBe(true);
  } finally {
    await other.stop();
  }
});
