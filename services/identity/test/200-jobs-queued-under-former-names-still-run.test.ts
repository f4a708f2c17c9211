// Identity's jobs were renamed `<service>.<entity>.<verb>`. Jobs an older version queued under the
// former names (`signin.mail`, `mail.relay`) are still picked up after an upgrade and deliver their mail.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { JobQueue } from '@murmur/jobs';
import { testLogger } from '@murmur/testing';
import { startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
let queue: JobQueue;
beforeAll(async () => {
  h = await startIdentity();
  // Another process of the same service, as an older version would have enqueued from.
  queue = new JobQueue(h.store, { service: 'identity', logger: testLogger(), clock: h.clock });
});
afterAll(() => h.stop());

test('a sign-in email queued as signin.mail is sent, and its link signs in', async () => {
  const { id } = await h.createUser('ada', 'ada@example.com');
  await queue.enqueue('signin.mail', { userId: id, appName: null, redirectUrl: null, isMobile: false });
  const mail = await h.capture.waitFor((m) => m.to.includes('ada@example.com'));
  expect(mail.text).toContain('http://murmur.test/account/signin/web?token=');
  expect((await h.verify(tokenFromMail(mail))).statusCode).toBe(200);
});

test('a relayed message queued as mail.relay is delivered', async () => {
  await queue.enqueue('mail.relay', {
    to: 'grace@example.com',
    subject: 'Queued before the upgrade',
    text: 'Still arrives.',
    html: '<p>Still arrives.</p>',
  });
  const mail = await h.capture.waitFor((m) => m.subject === 'Queued before the upgrade');
  expect(mail.to).toEqual(['grace@example.com']);
});
