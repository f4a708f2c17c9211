// A post that was public and is deleted answers 410 Gone at its permalink (GET and HEAD), with a short
// HTML page saying so and nothing of the post (webmention.rocks' delete test and the Webmention spec's
// delete flow read the 410). A URL that never held a public post stays 404, and so does a post taken
// back to draft (it may return). A deleted post's URL is never given to another post.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';
import { send } from './http.js';
import type { XmlRpcOut } from '../src/xmlrpc/values.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h.stop());

async function newPost(content: Record<string, XmlRpcOut>): Promise<{ id: number; path: string }> {
  const made = await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, content]);
  const id = made.value as number;
  const post = (await h.call('metaWeblog.getPost', [id, 'ada', ada.token])).value;
  return { id, path: post.link ? new URL(post.link).pathname : '' };
}

describe('a deleted public post', () => {
  let path: string;

  beforeAll(async () => {
    const post = await newPost({ title: 'Going away', description: 'A secret recipe for soup.' });
    path = post.path;
    expect((await h.get(path)).statusCode).toBe(200);
    const deleted = await h.call('metaWeblog.deletePost', [post.id, 'ada', ada.token]);
    expect(deleted.value).toBe(true);
  });

  it('answers 410 Gone with an HTML page that says it was deleted and shows nothing of it', async () => {
    const res = await h.get(path);
    expect(res.statusCode).toBe(410);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toMatch(/deleted/i);
    expect(res.text).not.toContain('Going away');
    expect(res.text).not.toContain('soup');
  });

  it('answers 410 to HEAD too', async () => {
    const res = await send(h.url, { method: 'HEAD', path });
    expect(res.statusCode).toBe(410);
  });

  it('is gone from the lists: home page and feeds', async () => {
    expect((await h.get('/sites/ada/')).text).not.toContain('Going away');
    expect((await h.get('/sites/ada/feed.json')).text).not.toContain('Going away');
  });

  it('keeps its URL: a new post of the same title that day gets another slug', async () => {
    const again = await newPost({ title: 'Going away', description: 'Back again.' });
    expect(again.path).not.toBe(path);
    expect(again.path).toBe(path.replace(/going-away\.html$/, 'going-away-2.html'));
    expect((await h.get(path)).statusCode).toBe(410);
  });

  it('deleted with blogger.deletePost (app key first) is gone too', async () => {
    const post = await newPost({ title: 'Blogger goes', description: 'x' });
    await h.call('blogger.deletePost', ['appkey', post.id, 'ada', ada.token, true]);
    expect((await h.get(post.path)).statusCode).toBe(410);
  });
});

describe('URLs that never held a public post, or hold one no longer public', () => {
  it('a path that never existed is 404', async () => {
    expect((await h.get('/sites/ada/2021/02/03/never-was.html')).statusCode).toBe(404);
  });

  it('a scheduled post deleted before its time is 404 at the path it would have had', async () => {
    const post = await newPost({
      title: 'Never out',
      description: 'x',
      dateCreated: new Date(Date.now() + 86_400_000),
    });
    expect(post.path).toMatch(/never-out\.html$/);
    await h.call('metaWeblog.deletePost', [post.id, 'ada', ada.token]);
    expect((await h.get(post.path)).statusCode).toBe(404);
  });

  it('a public post taken back to draft is 404 (it may come back), and 200 when republished', async () => {
    const post = await newPost({ title: 'Back to draft', description: 'x' });
    await h.call('metaWeblog.editPost', [post.id, 'ada', ada.token, { post_status: 'draft' }]);
    expect((await h.get(post.path)).statusCode).toBe(404);
    await h.call('metaWeblog.editPost', [post.id, 'ada', ada.token, { post_status: 'publish' }]);
    expect((await h.get(post.path)).statusCode).toBe(200);
  });

  it("another site's deleted post is no business of this site: 404 on ada's site", async () => {
    const bob = await h.createUser('bob');
    const made = await h.call('metaWeblog.newPost', [
      '0',
      'bob',
      bob.token,
      { title: 'Bobs note', description: 'x' },
    ]);
    const link: string = (await h.call('metaWeblog.getPost', [made.value, 'bob', bob.token])).value.link;
    await h.call('metaWeblog.deletePost', [made.value, 'bob', bob.token]);
    const path = new URL(link).pathname;
    expect((await h.get(path)).statusCode).toBe(410);
    expect((await h.get(path.replace('/sites/bob/', '/sites/ada/'))).statusCode).toBe(404);
  });
});
