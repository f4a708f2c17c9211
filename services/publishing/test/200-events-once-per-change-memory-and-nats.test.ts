// Post events reach a durable subscriber exactly once per change, with the post's public data, on the
// memory bus and on NATS (JetStream): published on creation, updated on an edit, deleted when withdrawn
// or deleted, published by the scheduler; events sent while the subscriber was away arrive when it returns.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeWithNats, startNatsServer, type NatsServerHandle, eventually } from '@murmur/testing';
import { startHarness, type Account, type Harness } from './harness.js';
import { recordPostEvents, settle } from './events.js';

function defineEventTests(start: () => Promise<Harness>): void {
  let h: Harness;
  let ada: Account;
  let bob: Account;

  beforeAll(async () => {
    h = await start();
    ada = await h.createUser('ada');
    bob = await h.createUser('bob');
    await h.siteOf(bob.id);
  }, 60_000);
  afterAll(() => h?.stop());

  it('one event per change, in order, with the public data', async () => {
    const log = await recordPostEvents(h.bus, 'events-test-a');
    try {
      const call = (method: string, params: unknown[]) => h.call(method, params as never);
      const id = (
        await call('metaWeblog.newPost', [
          '0',
          'ada',
          ada.token,
          {
            title: 'Evented',
            description: '<p>Hi @bob <img src="https://img.example/p.jpg"></p>',
            categories: ['Talk'],
          },
        ])
      ).value as number;
      await call('metaWeblog.editPost', [id, 'ada', ada.token, { title: 'Evented, edited' }]);
      await call('metaWeblog.editPost', [id, 'ada', ada.token, { post_status: 'draft' }]);
      await call('metaWeblog.editPost', [id, 'ada', ada.token, { post_status: 'publish' }]);
      await call('metaWeblog.deletePost', [id, 'ada', ada.token]);
      const draft = (
        await call('metaWeblog.newPost', [
          '0',
          'ada',
          ada.token,
          { description: 'quiet', post_status: 'draft' },
        ])
      ).value as number;
      await call('metaWeblog.editPost', [draft, 'ada', ada.token, { description: 'still quiet' }]);
      const later = (
        await call('metaWeblog.newPost', [
          '0',
          'ada',
          ada.token,
          { description: 'on time', dateCreated: new Date(Date.now() + 800) },
        ])
      ).value as number;

      await eventually(
        async () => (log.of(id).length >= 5 && log.of(later).length >= 1 ? true : undefined),
        10_000,
      );
      await settle(700);
      expect(log.of(id).map((e) => e.verb)).toEqual([
        'published',
        'updated',
        'deleted',
        'published',
        'deleted',
      ]);
      expect(log.of(draft)).toEqual([]);
      expect(log.of(later).map((e) => e.verb)).toEqual(['published']);

      const site = await h.siteOf(ada.id);
      const first = log.of(id)[0]!.envelope;
      expect(first.type).toBe('publishing.post.published');
      expect(first.producer).toBe('publishing');
      expect(first.data).toEqual({
        id,
        userId: ada.id,
        siteId: site._id,
        url: expect.stringMatching(/\/sites\/ada\/\d{4}\/\d{2}\/\d{2}\/evented\.html$/),
        title: 'Evented',
        contentHtml: expect.stringContaining('<img src="https://img.example/p.jpg" />'),
        contentText: 'Hi @bob',
        publishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
        photos: ['https://img.example/p.jpg'],
        mentions: [{ userId: bob.id, username: 'bob' }],
        categories: ['Talk'],
        revision: 1,
      });
      // Each event carries the revision it announces, growing with every change.
      const revisions = log.of(id).map((e) => e.envelope.data.revision!);
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      expect(new Set(revisions).size).toBe(revisions.length);
      expect(log.of(id)[1]!.envelope.data.title).toBe('Evented, edited');
      expect(new Set(log.events.map((e) => e.envelope.id)).size).toBe(log.events.length);
    } finally {
      await log.stop();
    }
  }, 60_000);

  it('a durable subscriber that was away gets what it missed', async () => {
    const first = await recordPostEvents(h.bus, 'events-test-b');
    const id = (await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, { description: 'before' }]))
      .value as number;
    await eventually(async () => (first.of(id).length === 1 ? true : undefined));
    await first.stop();
    await h.call('metaWeblog.editPost', [id, 'ada', ada.token, { description: 'while away' }]);
    await settle(200);
    const back = await recordPostEvents(h.bus, 'events-test-b');
    try {
      const missed = await eventually(async () => back.of(id).find((e) => e.verb === 'updated'));
      expect(missed.envelope.data.contentText).toBe('while away');
      await settle(500);
      expect(back.of(id).map((e) => e.verb)).toEqual(['updated']);
    } finally {
      await back.stop();
    }
  }, 60_000);
}

describe('memory bus', () => {
  defineEventTests(() => startHarness());
});

describeWithNats('NATS bus', () => {
  let server: NatsServerHandle;
  beforeAll(async () => {
    server = await startNatsServer();
  }, 60_000);
  afterAll(() => server?.stop());
  // Nested, so the services close their connections before the server stops.
  describe('services on NATS', () => defineEventTests(() => startHarness({ busUrl: server.url })));
});
