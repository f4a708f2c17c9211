// A local user's profile change (identity's user-updated event) reaches every follower on another
// server as one signed Update of the Person at the host's shared inbox, carrying the new name, bio
// and avatar; a redelivered event or one that changes nothing the actor shows sends nothing more.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { identity } from '@murmur/contracts';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';

let h: Harness;
let ada: string;
const WAIT = 60_000;

beforeAll(async () => {
  h = await startHarness();
  ada = `${h.url}/ap/users/ada`;
  for (const name of ['alice', 'bob']) {
    const actor = h.foreign.actorUrl(name);
    const res = await h.foreign.send(
      `${ada}/inbox`,
      { id: `${actor}#follows/1`, type: 'Follow', actor, object: ada },
      { name },
    );
    expect(res.status).toBe(202);
  }
  await eventually(
    async () =>
      h.foreign.received.filter((r) => r.activity.type === 'Accept').length === 2 ? true : undefined,
    WAIT,
  );
}, 120_000);
afterAll(() => h.stop());

const updates = () => h.foreign.received.filter((r) => r.activity.type === 'Update');

const user = (fields: { name: string; bio: string; avatar: string }) => ({
  user: {
    id: ADA.id,
    username: ADA.username,
    email: 'ada@example.com',
    fullName: '',
    links: [],
    createdAt: '2026-01-01T00:00:00+00:00',
    ...fields,
  },
});

test('a changed profile is one signed Update(Person) at the followers’ shared inbox', async () => {
  const event = user({ name: 'Ada L.', bio: 'Counting engines', avatar: 'https://img.example/ada.png' });
  const { id } = await h.bus.publish(identity.userUpdated, event, {
    occurredAt: '2026-12-01T10:00:00+00:00',
  });
  const [update] = await eventually(async () => (updates().length > 0 ? updates() : undefined), WAIT);
  expect(update!.inbox).toBe(`${h.foreign.origin}/inbox`);
  expect(update!.keyId).toBe(`${ada}#main-key`);
  expect(update!.activity).toMatchObject({
    type: 'Update',
    actor: ada,
    object: {
      id: ada,
      type: 'Person',
      name: 'Ada L.',
      summary: '<p>Counting engines</p>',
      icon: { type: 'Image', url: 'https://img.example/ada.png' },
      publicKey: { id: `${ada}#main-key`, owner: ada },
    },
  });
  // The same event again, and a later one that changes nothing the actor shows: nothing more is sent.
  await h.bus.publish(identity.userUpdated, event, { id, occurredAt: '2026-12-01T10:00:00+00:00' });
  await h.bus.publish(
    identity.userUpdated,
    { user: { ...event.user, email: 'new@example.com' } },
    {
      occurredAt: '2026-12-01T10:05:00+00:00',
    },
  );
  await eventually(
    async () =>
      ((await h.ctx.store.userById(ADA.id))?.rev ?? 0) >= Date.parse('2026-12-01T10:05:00Z')
        ? true
        : undefined,
    WAIT,
  );
  await new Promise((r) => setTimeout(r, 1000));
  expect(updates()).toHaveLength(1);
}, 120_000);
