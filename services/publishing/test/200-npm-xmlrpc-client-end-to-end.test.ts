// The npm xmlrpc client (as Node scripts use it) drives the whole method set through the gateway: blogs,
// posts (create, read back, edit, list, delete), categories, media fetched from the returned URL, pages,
// and a scheduled post appearing on the site after its time.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import xmlrpc from 'xmlrpc';
import { PNG } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';
import { eventually } from '@murmur/testing';

let h: Harness;
let ada: Account;
let client: xmlrpc.Client;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada' });
  const { hostname, port } = new URL(h.url);
  client = xmlrpc.createClient({ host: hostname, port: Number(port), path: '/xmlrpc' });
  // Dates go out as UTC with a Z, whatever the machine's zone.
  xmlrpc.dateFormatter.setOpts({ local: false, offset: true });
});
afterAll(() => h.stop());

function call<T = any>(method: string, params: unknown[]): Promise<T> {
  return new Promise((resolve, reject) =>
    client.methodCall(method, params, (err: unknown, value: T) => (err ? reject(err) : resolve(value))),
  );
}

it('runs a whole editing session', async () => {
  const blogs = await call<any[]>('metaWeblog.getUsersBlogs', ['key', 'ada', ada.token]);
  const blogId: string = blogs[0].blogid;
  expect(typeof blogId).toBe('string');

  // Create and read back.
  const id = await call<number>('metaWeblog.newPost', [
    blogId,
    'ada',
    ada.token,
    { title: 'From Node', description: 'Line one\nLine two\n\nhttps://example.org/x.', categories: ['Node'] },
    true,
  ]);
  expect(typeof id).toBe('number');
  const post = await call('metaWeblog.getPost', [id, 'ada', ada.token]);
  expect(post).toMatchObject({
    postid: String(id),
    id,
    title: 'From Node',
    categories: ['Node'],
    post_status: 'published',
  });
  expect(post.dateCreated).toBeInstanceOf(Date);

  // The permalink page renders the plain text as paragraphs with a line break and a link.
  const page = await h.get(new URL(post.permalink).pathname);
  expect(page.text).toContain('<p>Line one<br />\nLine two</p>');
  expect(page.text).toContain(
    '<a href="https://example.org/x" rel="nofollow noopener noreferrer">https://example.org/x</a>.',
  );

  // Edit, list, categories.
  expect(
    await call('metaWeblog.editPost', [String(id), 'ada', ada.token, { title: 'From Node, edited' }, true]),
  ).toBe(true);
  expect((await call('metaWeblog.getPost', [id, 'ada', ada.token])).title).toBe('From Node, edited');
  const recent = await call<any[]>('metaWeblog.getRecentPosts', [blogId, 'ada', ada.token, 5]);
  expect(recent.map((p) => p.id)).toEqual([id]);
  const categories = await call<any[]>('service.getCategories', [blogId, 'ada', ada.token]);
  expect(categories.map((c) => c.categoryName)).toEqual(['Node']);

  // Media: upload, then fetch the URL.
  const media = await call<{ url: string; id: string }>('metaWeblog.newMediaObject', [
    blogId,
    'ada',
    ada.token,
    { name: 'node.png', type: 'image/png', bits: PNG },
  ]);
  const fetched = await fetch(media.url);
  expect(fetched.status).toBe(200);
  expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG)).toBe(true);
  expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');

  // Pages.
  const pageId = await call<number>('service.newPage', [
    blogId,
    'ada',
    ada.token,
    { title: 'Colophon', description: 'Made with Node.' },
  ]);
  expect((await call('service.getPage', [pageId, 'ada', ada.token])).title).toBe('Colophon');
  expect(await call('service.editPage', [pageId, 'ada', ada.token, { is_navigation: true }])).toBe(true);
  expect(
    (await call<any[]>('service.getPages', [blogId, 'ada', ada.token, 10, 0])).map((p) => [
      p.id,
      p.is_navigation,
    ]),
  ).toEqual([[pageId, true]]);
  expect(await call('service.deletePage', [pageId, 'ada', ada.token])).toBe(true);

  // A scheduled post appears on the site once its time has come. Three seconds ahead: the post must
  // still be scheduled when the next calls read it, however slowly the machine answers them.
  const due = new Date(Date.now() + 3000);
  const later = await call<number>('service.newPost', [
    blogId,
    'ada',
    ada.token,
    { title: 'Node later', description: 'x', dateCreated: due },
  ]);
  const scheduled = await call('service.getPost', [later, 'ada', ada.token]);
  expect(scheduled.post_status).toBe('scheduled');
  const path = new URL(scheduled.permalink).pathname;
  expect((await h.get(path)).statusCode).toBe(404);
  await eventually(async () => ((await h.get(path)).statusCode === 200 ? true : undefined), 10_000);
  expect((await h.get('/sites/ada/')).text).toContain('Node later');

  // Delete.
  expect(await call('metaWeblog.deletePost', [id, 'ada', ada.token])).toBe(true);
  await expect(call('metaWeblog.getPost', [id, 'ada', ada.token])).rejects.toMatchObject({ faultCode: 404 });
  await expect(call('metaWeblog.getPost', [later, 'ada', 'wrong'])).rejects.toMatchObject({ faultCode: 403 });
}, 60_000);
