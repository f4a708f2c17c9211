// editPost keeps the id, replaces only the members sent (no title → the old title stays), updates the
// modified date, answers boolean true and emits one updated event; draft → published publishes, published →
// draft withdraws (deleted event). Another user's post is fault 404 and is not changed. deletePost answers
// true, emits a deleted event, and the post is then 404 for getPost.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { XmlRpcOut } from '../src/xmlrpc/values.js';
import { startHarness, type Account, type Harness } from './harness.js';
import { recordPostEvents, settle, type PostEventLog } from './events.js';

let h: Harness;
let ada: Account;
let bob: Account;
let log: PostEventLog;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  log = await recordPostEvents(h.bus);
});
afterAll(async () => {
  await log.stop();
  await h.stop();
});

const newPost = async (content: Record<string, XmlRpcOut>) =>
  (await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, content])).value as number;
const getPost = async (id: number, who: Account = ada) =>
  h.call('metaWeblog.getPost', [id, who.username, who.token]);

describe('editPost', () => {
  it('keeps id and title, replaces the body and categories, updates date_modified, emits one updated event', async () => {
    const id = await newPost({ title: 'Original title', description: 'first body', categories: ['a'] });
    const before = (await getPost(id)).value;
    await new Promise((r) => setTimeout(r, 1100));
    const res = await h.call('metaWeblog.editPost', [
      String(id),
      'ada',
      ada.token,
      { description: 'second body', categories: ['b'] },
      true,
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.text).toContain('<boolean>1</boolean>');
    expect(res.value).toBe(true);
    const after = (await getPost(id)).value;
    expect(after).toMatchObject({
      id,
      title: 'Original title',
      description: 'second body',
      categories: ['b'],
    });
    expect(after.permalink).toBe(before.permalink);
    expect(after.date_modified.getTime()).toBeGreaterThan(before.date_modified.getTime());
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published', 'updated']);
    expect(log.of(id)[1]!.envelope.data.contentText).toBe('second body');
  });

  it('draft → published publishes (one event); published → draft withdraws (deleted event)', async () => {
    const id = await newPost({ title: 'Draft first', description: 'd', post_status: 'draft' });
    await h.call('service.editPost', [id, 'ada', ada.token, { post_status: 'publish' }]);
    expect((await getPost(id)).value.post_status).toBe('published');
    await h.call('service.editPost', [id, 'ada', ada.token, { post_status: 'draft' }]);
    const withdrawn = (await getPost(id)).value;
    expect(withdrawn.post_status).toBe('draft');
    expect(withdrawn.link).toBe('');
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published', 'deleted']);
  });

  it('on another user’s post → fault 404, and the post is unchanged', async () => {
    const id = await newPost({ title: 'Ada’s', description: 'mine' });
    const res = await h.call('metaWeblog.editPost', [id, 'bob', bob.token, { title: 'Bob was here' }, true]);
    expect(res.fault).toEqual({ faultCode: 404, faultString: 'No such post.' });
    expect((await getPost(id)).value.title).toBe('Ada’s');
    expect((await getPost(id, bob)).fault?.faultCode).toBe(404);
    const gone = await h.call('metaWeblog.editPost', [987654, 'ada', ada.token, { title: 'x' }]);
    expect(gone.fault?.faultCode).toBe(404);
  });
});

describe('deletePost', () => {
  it('answers true; getPost is then 404; one deleted event', async () => {
    const id = await newPost({ title: 'Short-lived', description: 'bye' });
    const res = await h.call('metaWeblog.deletePost', [id, 'ada', ada.token]);
    expect(res.value).toBe(true);
    expect((await getPost(id)).fault?.faultCode).toBe(404);
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published', 'deleted']);
    expect((await h.call('metaWeblog.deletePost', [id, 'ada', ada.token])).fault?.faultCode).toBe(404);
  });

  it('blogger.deletePost takes an app key first', async () => {
    const id = await newPost({ description: 'blogger style' });
    const res = await h.call('blogger.deletePost', ['any-app-key', String(id), 'ada', ada.token, true]);
    expect(res.value).toBe(true);
    expect((await getPost(id)).fault?.faultCode).toBe(404);
  });

  it('of another user’s post → 404 and the post stays', async () => {
    const id = await newPost({ description: 'stays' });
    const before = await h.counts();
    expect((await h.call('service.deletePost', [id, 'bob', bob.token])).fault?.faultCode).toBe(404);
    expect(await h.counts()).toEqual(before);
  });
});
