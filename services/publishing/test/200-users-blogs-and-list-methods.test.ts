// What setup wizards call first: blogger.getUsersBlogs (and the metaWeblog alias) list the user's sites
// with string blogids; blogger.getUserInfo gives the profile; system.listMethods and mt.supportedMethods
// list every method served, without logging in.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada Lovelace' });
});
afterAll(() => h.stop());

const ALL_METHODS = [
  'blogger.deletePost',
  'blogger.getUserInfo',
  'blogger.getUsersBlogs',
  'metaWeblog.deletePost',
  'metaWeblog.editPost',
  'metaWeblog.getCategories',
  'metaWeblog.getPost',
  'metaWeblog.getRecentPosts',
  'metaWeblog.getUsersBlogs',
  'metaWeblog.newMediaObject',
  'metaWeblog.newPost',
  'mt.getCategoryList',
  'mt.getPostCategories',
  'mt.getRecentPostTitles',
  'mt.publishPost',
  'mt.setPostCategories',
  'mt.supportedMethods',
  'mt.supportedTextFilters',
  'service.deletePage',
  'service.deletePost',
  'service.editPage',
  'service.editPost',
  'service.getCategories',
  'service.getPage',
  'service.getPages',
  'service.getPost',
  'service.getPosts',
  'service.newMediaObject',
  'service.newPage',
  'service.newPost',
  'system.listMethods',
];

describe('discovery methods', () => {
  it('getUsersBlogs returns string blogids, default site first', async () => {
    for (const method of ['blogger.getUsersBlogs', 'metaWeblog.getUsersBlogs']) {
      const res = await h.call(method, ['any-app-key', 'ada', ada.token]);
      expect(res.text).toMatch(/<name>blogid<\/name><value><string>\d+<\/string>/);
      const site = await h.siteOf(ada.id);
      expect(res.value).toEqual([
        {
          blogid: String(site._id),
          blogName: 'Ada Lovelace',
          url: `${h.url}/sites/ada/`,
          xmlrpc: `${h.url}/xmlrpc`,
          isAdmin: true,
        },
      ]);
    }
    expect((await h.call('blogger.getUsersBlogs', ['k', 'ada', 'wrong'])).fault?.faultCode).toBe(403);
  });

  it('getUserInfo', async () => {
    const res = await h.call('blogger.getUserInfo', ['key', 'ada@example.com', ada.token]);
    expect(res.value).toEqual({
      userid: String(ada.id),
      nickname: 'ada',
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      url: `${h.url}/sites/ada/`,
    });
  });

  it('system.listMethods and mt.supportedMethods list every served method, with no login', async () => {
    for (const method of ['system.listMethods', 'mt.supportedMethods']) {
      const res = await h.call(method, []);
      expect(res.value).toEqual(ALL_METHODS);
    }
  });

  it('every listed method answers something other than "unknown method"', async () => {
    for (const method of ALL_METHODS) {
      const res = await h.call(method, []);
      expect(res.fault?.faultCode).not.toBe(-32601);
    }
  });
});
