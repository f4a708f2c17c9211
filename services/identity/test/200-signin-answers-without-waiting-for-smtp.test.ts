// Sending is a job: /account/signin answers at once even when the mail server is down, and the failed
// delivery is retried later without the address or the link ending up in the job's stored error.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort } from '@murmur/testing';
import { eventually, startIdentity, storedText, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({ MAIL_URL: `smtp://127.0.0.1:${await freePort()}` });
  await h.createUser('ada', 'ada.l@example.com');
});
afterAll(() => h.stop());

describe('POST /account/signin with the mail server down', () => {
  test('answers 200 {} and the job records a delivery failure to retry', async () => {
    const res = await h.signin({ email: 'ada.l@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});

    const jobs = h.store.collection<{ status: string; lastError: string | null; attempts: number }>('jobs');
    const failed = await eventually(
      async () => (await jobs.findOne({ lastError: { $ne: null } })) ?? undefined,
    );
    expect(failed.status).toBe('queued');
    expect(failed.lastError).toMatch(/mail delivery failed \((ESOCKET|ECONNECTION)\)/);
    const stored = await storedText(h.store);
    const jobText = stored.split('\n').find((line) => line.includes('identity.signin-email.send'))!;
    expect(jobText).not.toContain('ada.l@example.com');
    expect(jobText).not.toContain('token=');
  });
});
