// newPost with site id "0" posts to the user's default site and answers an <int> id; the account email
// works as the login too; getPost shows the post with its permalink.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada Lovelace' });
});
afterAll(() => h.stop());

describe('newPost on site "0"', () => {
  it('returns an <int> post id and getPost shows the post', async () => {
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Hello World', description: 'First post, see https://x.example.', post_status: 'published' },
      true,
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.fault).toBeUndefined();
    expect(res.text).toMatch(/<int>\d+<\/int>/);
    const id = res.value as number;

    const got = await h.call('metaWeblog.getPost', [id, 'ada', ada.token]);
    expect(got.fault).toBeUndefined();
    const site = await h.siteOf(ada.id);
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
    expect(got.value).toMatchObject({
      postid: String(id),
      id,
      title: 'Hello World',
      description: 'First post, see https://x.example.',
      post_status: 'published',
      userid: String(ada.id),
      author: { name: 'Ada Lovelace', username: 'ada' },
      categories: [],
    });
    expect(got.value.permalink).toBe(`${h.url}/sites/ada/${day}/hello-world.html`);
    expect(got.value.link).toBe(got.value.permalink);
    expect(got.value.permaLink).toBe(got.value.permalink);
    expect(site.username).toBe('ada');
  });

  it('accepts the account email instead of the username', async () => {
    const res = await h.call('service.newPost', [
      '0',
      'ada@example.com',
      ada.token,
      { description: 'via email' },
    ]);
    expect(res.fault).toBeUndefined();
    expect(typeof res.value).toBe('number');
  });
});
