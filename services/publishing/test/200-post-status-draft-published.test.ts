// Status rules of newPost: post_status "draft" → a draft with an empty link and no event; no post_status →
// published (one event); the publish flag false without a status → draft; post_status "publish" → published.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';
import { recordPostEvents, settle, type PostEventLog } from './events.js';

let h: Harness;
let ada: Account;
let log: PostEventLog;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  log = await recordPostEvents(h.bus);
});
afterAll(async () => {
  await log.stop();
  await h.stop();
});

async function newPost(content: Record<string, unknown>, publish?: boolean): Promise<number> {
  const params: any[] = ['0', 'ada', ada.token, content];
  if (publish !== undefined) params.push(publish);
  const res = await h.call('metaWeblog.newPost', params);
  expect(res.fault).toBeUndefined();
  return res.value as number;
}

const getPost = async (id: number) => (await h.call('metaWeblog.getPost', [id, 'ada', ada.token])).value;

describe('newPost status', () => {
  it('post_status draft → draft, empty link, no published event (even with publish true)', async () => {
    const id = await newPost({ title: 'Secret', description: 'not yet', post_status: 'draft' }, true);
    const post = await getPost(id);
    expect(post.post_status).toBe('draft');
    expect(post.link).toBe('');
    expect(post.permalink).toBe('');
    await settle();
    expect(log.of(id)).toEqual([]);
  });

  it('post_status absent → published, with one published event', async () => {
    const id = await newPost({ title: 'Out', description: 'now' });
    expect((await getPost(id)).post_status).toBe('published');
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published']);
  });

  it('publish false without post_status → draft', async () => {
    const id = await newPost({ description: 'kept back' }, false);
    expect((await getPost(id)).post_status).toBe('draft');
    await settle();
    expect(log.of(id)).toEqual([]);
  });

  it('post_status publish (or anything but draft) → published, even with publish false', async () => {
    const a = await newPost({ description: 'a', post_status: 'publish' });
    const b = await newPost({ description: 'b', post_status: 'published' }, false);
    expect((await getPost(a)).post_status).toBe('published');
    expect((await getPost(b)).post_status).toBe('published');
  });

  it('a draft with a future date is kept as a draft, not scheduled', async () => {
    const future = new Date(Date.now() + 3600_000);
    const id = await newPost({ description: 'later maybe', post_status: 'draft', dateCreated: future });
    const post = await getPost(id);
    expect(post.post_status).toBe('draft');
    expect(await h.store.collection('jobs').countDocuments({ 'payload.postId': id })).toBe(0);
  });

  it('a post without description and title → −32602, nothing stored', async () => {
    const before = await h.counts();
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { description: '   ', categories: ['x'] },
    ]);
    expect(res.fault?.faultCode).toBe(-32602);
    expect(await h.counts()).toEqual(before);
  });
});
