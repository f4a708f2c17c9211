// Replies, likes and boosts of a post from the fediverse (federation's events) show where webmentions
// show — GET /webmention for the post, and evt.webmention.mention.verified for feeds and push (isNew)
// — without fetching anything; undone, they leave.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation } from '@murmur/contracts';
import { eventually } from '@murmur/testing';
import { ADA, ADA_POST, startHarness, withSites, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await withSites(h);
  await h.postEvent('published', { id: 1, userId: ADA.id, url: ADA_POST, contentHtml: '<p>Hello</p>' });
});
afterAll(() => h.stop());

const reply: federation.Interaction = {
  id: federation.REMOTE_ID_BASE + 1,
  type: 'reply',
  source: 'https://remote.example/@alice/10',
  target: ADA_POST,
  targetUserId: ADA.id,
  author: { name: 'Alice', url: 'https://remote.example/@alice', photo: 'https://remote.example/a.png' },
  contentHtml: '<p>Lovely!</p>',
  contentText: 'Lovely!',
  published: '2026-11-21T09:00:00+00:00',
  received: '2026-11-21T09:00:01+00:00',
  revision: 1,
};

test('a reply and a like arrive as verified mentions of the post, new ones', async () => {
  await h.bus.publish(federation.interactionReceived, reply);
  await h.bus.publish(federation.interactionReceived, {
    ...reply,
    id: federation.REMOTE_ID_BASE + 2,
    type: 'like',
    source: 'https://remote.example/users/alice#likes/3',
    contentHtml: '',
    contentText: '',
  });
  const res = await eventually(async () => {
    const r = await h.request('GET', `/webmention?target=${encodeURIComponent(ADA_POST)}`);
    return (r.json() as { items: unknown[] }).items.length === 2 ? r : undefined;
  });
  const items = (res.json() as { items: Record<string, any>[] }).items;
  expect(items.find((i) => i._service.type === 'reply')).toMatchObject({
    url: 'https://remote.example/@alice/10',
    content_html: '<p>Lovely!</p>',
    date_published: '2026-11-21T09:00:00+00:00',
    author: { name: 'Alice', url: 'https://remote.example/@alice', avatar: 'https://remote.example/a.png' },
  });
  expect(items.find((i) => i._service.type === 'like')).toBeDefined();
  const verified = h.verified.find((e) => e.data.source === reply.source);
  expect(verified?.data).toMatchObject({ type: 'reply', targetUserId: ADA.id, isNew: true });
});

test('removed (undone or deleted) → it leaves', async () => {
  await h.bus.publish(federation.interactionRemoved, { ...reply, revision: 2 });
  await eventually(async () => h.deleted.find((e) => e.data.source === reply.source));
  const r = await h.request('GET', `/webmention?target=${encodeURIComponent(ADA_POST)}`);
  expect((r.json() as { items: unknown[] }).items).toHaveLength(1);
});
