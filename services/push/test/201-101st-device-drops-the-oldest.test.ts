import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { PUSH_REGISTER_PER_MINUTE: '1000' } });
});
afterAll(() => h.stop());

test('at most 100 devices per user: the 101st registration drops the oldest', async () => {
  const ada = h.user('ada');
  for (let i = 1; i <= 101; i++) expect((await h.register(ada, devHex(i))).statusCode).toBe(201);
  const res = await h.request('GET', '/users/push/info?push_env=production', { token: ada.token });
  const tokens = (res.json() as { token: string }[]).map((d) => d.token);
  expect(tokens).toHaveLength(100);
  expect(tokens[0]).toBe(devHex(2));
  expect(tokens[99]).toBe(devHex(101));
  expect(tokens).not.toContain(devHex(1));
  // 101 durable registrations one after another: minutes, not seconds, on a loaded 2-core CI machine.
}, 120_000);
