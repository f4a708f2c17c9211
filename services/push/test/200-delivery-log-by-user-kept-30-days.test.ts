import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { devHex, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const log = async (query = '') =>
  (await h.admin('GET', `/admin/push/log${query}`)).json().deliveries as any[];

test('each attempt is logged (device, event id, status, reason, time); filtered by user; gone after 30 days', async () => {
  const ada = h.user('ada');
  const bob = h.user('bob');
  await h.register(ada, devHex(1));
  await h.register(bob, devHex(2));
  const e1 = await h.followEvent(bob, ada);
  await eventually(async () => ((await log()).length >= 1 ? true : undefined));
  // The job finished before the clock moves a day: a job still running would outlive its lease.
  await h.settle();
  h.clock.advance(24 * 3_600_000);
  await h.followEvent(ada, bob);
  await eventually(async () => ((await log()).length >= 2 ? true : undefined));

  const adas = await log(`?user_id=${ada.id}`);
  expect(adas).toEqual([
    {
      at: '2030-01-01T08:30:00+00:00',
      channel: 'apns',
      event_id: e1,
      user_id: ada.id,
      device_id: expect.any(Number),
      device: `${devHex(1).slice(0, 8)}…`,
      app_name: 'default',
      push_env: 'production',
      attempt: 1,
      status: 200,
      reason: '',
      outcome: 'delivered',
    },
  ]);
  expect((await log()).map((d) => d.user_id)).toEqual([bob.id, ada.id]);

  h.clock.advance(29 * 24 * 3_600_000 + 60_000); // ada's entry is 30 days and a minute old
  expect((await log()).map((d) => d.user_id)).toEqual([bob.id]);
});
