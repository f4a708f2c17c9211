// What desktop blog editors (MarsEdit, Open Live Writer) send beside the MetaWeblog basics, driven with
// method calls written as MarsEdit writes them (every id and value a <string>, the MT members in the
// post struct): the Movable Type members `mt_keywords` (tags, kept as categories), `wp_slug` (the
// permalink's slug), `mt_excerpt` (the summary) and `mt_text_more` (the rest, after a more marker) are
// kept and returned; the Movable Type methods answer in their API's shapes; metaWeblog.deletePost takes
// the app key first too; and a body without an XML Content-Type is read as XML, as WordPress does.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';
import { postXml, send } from './http.js';

let h: Harness;
let ada: Account;
let bob: Account;
let blogId: string;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const str = (s: string) => `<value><string>${esc(s)}</string></value>`;
const member = (name: string, value: string) => `<member><name>${name}</name>${value}</member>`;
const struct = (...members: string[]) => `<value><struct>${members.join('')}</struct></value>`;
const array = (...values: string[]) => `<value><array><data>${values.join('')}</data></array></value>`;

/** A <methodCall> as MarsEdit writes it: a declaration, one param per line. */
function methodCall(name: string, ...params: string[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<methodCall>\n<methodName>${name}</methodName>\n<params>\n` +
    params.map((p) => `<param>${p}</param>\n`).join('') +
    `</params>\n</methodCall>\n`
  );
}

async function call(name: string, ...params: string[]) {
  const res = await h.postXml(methodCall(name, ...params));
  expect(res.statusCode).toBe(200);
  return res;
}

/** The post struct MarsEdit sends for a new post with everything filled in. */
function marsEditPost(fields: {
  title: string;
  slug?: string;
  keywords?: string;
  more?: string;
  excerpt?: string;
}) {
  return struct(
    member('title', str(fields.title)),
    member('description', str('<p>The main part.</p>')),
    ...(fields.more !== undefined ? [member('mt_text_more', str(fields.more))] : []),
    ...(fields.excerpt !== undefined ? [member('mt_excerpt', str(fields.excerpt))] : []),
    ...(fields.keywords !== undefined ? [member('mt_keywords', str(fields.keywords))] : []),
    ...(fields.slug !== undefined ? [member('wp_slug', str(fields.slug))] : []),
    member('categories', array(str('Notes'))),
    member('mt_allow_comments', '<value><int>1</int></value>'),
    member('mt_allow_pings', '<value><int>0</int></value>'),
    member('mt_convert_breaks', str('__default__')),
  );
}

const login = (who: Account = ada) => [str(who.username), str(who.token)];

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada Lovelace' });
  bob = await h.createUser('bob');
  blogId = String((await h.siteOf(ada.id))._id);
});
afterAll(() => h.stop());

describe('Movable Type members of the post struct', () => {
  let postId: string;
  let post: Record<string, any>;

  beforeAll(async () => {
    const made = await call(
      'metaWeblog.newPost',
      str(blogId),
      ...login(),
      marsEditPost({
        title: 'Engines of Thought',
        slug: 'analytical-engine',
        keywords: 'math, Engines ,history',
        excerpt: 'On the engine, briefly.',
        more: '<p>The rest, at length.</p>',
      }),
      '<value><boolean>1</boolean></value>',
    );
    postId = String(made.value);
    post = (await call('metaWeblog.getPost', str(postId), ...login())).value;
  });

  it('wp_slug is the slug of the permalink', () => {
    expect(post.link).toMatch(/\/\d{4}\/\d{2}\/\d{2}\/analytical-engine\.html$/);
    expect(post.wp_slug).toBe('analytical-engine');
  });

  it('mt_keywords are tags, kept as categories beside the chosen ones, and returned as given', () => {
    expect(post.mt_keywords).toBe('math, Engines, history');
    expect(post.categories).toEqual(['Notes', 'math', 'Engines', 'history']);
  });

  it('mt_excerpt is the summary and mt_text_more the rest; description stays the main part', () => {
    expect(post.mt_excerpt).toBe('On the engine, briefly.');
    expect(post.mt_text_more).toBe('<p>The rest, at length.</p>');
    expect(post.description).toBe('<p>The main part.</p>');
  });

  it('the page shows the main part, a more marker, then the rest; the JSON Feed has the summary and tags', async () => {
    const page = await h.get(new URL(post.link as string).pathname);
    expect(page.text).toMatch(/<p>The main part\.<\/p>\s*<!--more-->\s*<p>The rest, at length\.<\/p>/);
    const feed = JSON.parse((await h.get('/sites/ada/feed.json')).text);
    const item = feed.items.find((i: any) => i.url === post.link);
    expect(item.summary).toBe('On the engine, briefly.');
    expect(item.tags).toEqual(['Notes', 'math', 'Engines', 'history']);
  });

  it('getRecentPosts returns the members too', async () => {
    const recent = (await call('metaWeblog.getRecentPosts', str(blogId), ...login(), str('5'))).value;
    expect(recent[0]).toMatchObject({
      postid: postId,
      mt_keywords: 'math, Engines, history',
      wp_slug: 'analytical-engine',
      mt_excerpt: 'On the engine, briefly.',
      mt_text_more: '<p>The rest, at length.</p>',
    });
  });

  it('editPost with only mt_text_more changes the rest and keeps the rest of the post', async () => {
    await call(
      'metaWeblog.editPost',
      str(postId),
      ...login(),
      struct(member('mt_text_more', str('Now shorter.'))),
      '<value><boolean>1</boolean></value>',
    );
    const edited = (await call('metaWeblog.getPost', str(postId), ...login())).value;
    expect(edited).toMatchObject({
      description: '<p>The main part.</p>',
      mt_text_more: 'Now shorter.',
      mt_excerpt: 'On the engine, briefly.',
      mt_keywords: 'math, Engines, history',
      link: post.link,
    });
    const page = await h.get(new URL(post.link as string).pathname);
    expect(page.text).toMatch(/<!--more-->\s*<p>Now shorter\.<\/p>/);
  });

  it('editPost with new mt_keywords replaces the tags and keeps the chosen categories', async () => {
    await call('metaWeblog.editPost', str(postId), ...login(), struct(member('mt_keywords', str('poetry'))));
    const edited = (await call('metaWeblog.getPost', str(postId), ...login())).value;
    expect(edited.mt_keywords).toBe('poetry');
    expect(edited.categories).toEqual(['Notes', 'poetry']);
  });

  it('a post without the members returns them empty', async () => {
    const made = await call(
      'metaWeblog.newPost',
      str(blogId),
      ...login(),
      struct(member('title', str('Plain'))),
    );
    const plain = (await call('metaWeblog.getPost', str(String(made.value)), ...login())).value;
    expect(plain).toMatchObject({ mt_keywords: '', wp_slug: 'plain', mt_excerpt: '', mt_text_more: '' });
  });

  it('a slug of nothing but punctuation, and a body and rest over 512 KiB together, are faults −32602', async () => {
    const slug = await call(
      'metaWeblog.newPost',
      str(blogId),
      ...login(),
      marsEditPost({ title: 'x', slug: '!!!' }),
    );
    expect(slug.fault).toEqual({ faultCode: -32602, faultString: expect.stringContaining('wp_slug') });
    const half = 'a'.repeat(300 * 1024);
    const long = await call(
      'metaWeblog.newPost',
      str(blogId),
      ...login(),
      struct(member('description', str(half)), member('mt_text_more', str(half))),
    );
    expect(long.fault).toEqual({ faultCode: -32602, faultString: expect.stringContaining('mt_text_more') });
  });
});

describe('Movable Type methods', () => {
  let postId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const made = await call(
      'metaWeblog.newPost',
      str(blogId),
      ...login(),
      struct(
        member('title', str('Categorised')),
        member('description', str('Body')),
        member('categories', array(str('Travel'), str('Food'))),
        member('post_status', str('draft')),
      ),
    );
    postId = String(made.value);
  });

  it('mt.getCategoryList: {categoryId, categoryName} of every category of the site, ids as strings', async () => {
    const list = (await call('mt.getCategoryList', str(blogId), ...login())).value as any[];
    for (const c of list) {
      expect(Object.keys(c).sort()).toEqual(['categoryId', 'categoryName']);
      expect(c.categoryId).toMatch(/^\d+$/);
      ids[c.categoryName] = c.categoryId;
    }
    expect(Object.keys(ids)).toEqual(expect.arrayContaining(['Travel', 'Food', 'Notes']));
  });

  it("mt.getPostCategories: {categoryName, categoryId, isPrimary} of the post's, the first primary", async () => {
    const cats = (await call('mt.getPostCategories', str(postId), ...login())).value;
    expect(cats).toEqual([
      { categoryName: 'Travel', categoryId: ids.Travel, isPrimary: true },
      { categoryName: 'Food', categoryId: ids.Food, isPrimary: false },
    ]);
  });

  it('mt.setPostCategories sets them by id, the one marked primary first, and answers true', async () => {
    const res = await call(
      'mt.setPostCategories',
      str(postId),
      ...login(),
      array(
        struct(
          member('categoryId', str(ids.Notes!)),
          member('isPrimary', '<value><boolean>0</boolean></value>'),
        ),
        struct(
          member('categoryId', str(ids.Food!)),
          member('isPrimary', '<value><boolean>1</boolean></value>'),
        ),
      ),
    );
    expect(res.value).toBe(true);
    const cats = (await call('mt.getPostCategories', str(postId), ...login())).value;
    expect(cats.map((c: any) => [c.categoryName, c.isPrimary])).toEqual([
      ['Food', true],
      ['Notes', false],
    ]);
  });

  it('mt.setPostCategories with an id that is not a category of the site is −32602, and changes nothing', async () => {
    const res = await call(
      'mt.setPostCategories',
      str(postId),
      ...login(),
      array(struct(member('categoryId', str('999999')))),
    );
    expect(res.fault?.faultCode).toBe(-32602);
    expect(res.fault?.faultString).toContain('categoryId');
    const cats = (await call('mt.getPostCategories', str(postId), ...login())).value;
    expect(cats.map((c: any) => c.categoryName)).toEqual(['Food', 'Notes']);
  });

  it("another user's post is 404 for mt.getPostCategories, mt.setPostCategories and mt.publishPost", async () => {
    for (const [name, ...rest] of [
      ['mt.getPostCategories'],
      ['mt.setPostCategories', array()],
      ['mt.publishPost'],
    ] as const) {
      const res = await call(name, str(postId), ...login(bob), ...rest);
      expect(res.fault?.faultCode).toBe(404);
    }
  });

  it('mt.supportedTextFilters needs no login and answers an array of {key, label}', async () => {
    const res = await call('mt.supportedTextFilters');
    expect(Array.isArray(res.value)).toBe(true);
    for (const f of res.value) expect(Object.keys(f).sort()).toEqual(['key', 'label']);
  });

  it('mt.publishPost publishes a draft and answers true; its page is then public', async () => {
    const res = await call('mt.publishPost', str(postId), ...login());
    expect(res.value).toBe(true);
    const post = (await call('metaWeblog.getPost', str(postId), ...login())).value;
    expect(post.post_status).toBe('published');
    expect((await h.get(new URL(post.link as string).pathname)).statusCode).toBe(200);
  });

  it('mt.getRecentPostTitles: the newest N as {dateCreated, userid, postid, title}, ids as strings', async () => {
    const titles = (await call('mt.getRecentPostTitles', str(blogId), ...login(), str('2'))).value as any[];
    expect(titles).toHaveLength(2);
    expect(titles[0]).toMatchObject({ postid: postId, title: 'Categorised', userid: String(ada.id) });
    expect(titles[0].dateCreated).toBeInstanceOf(Date);
    expect(titles[0]).not.toHaveProperty('description');
  });
});

describe('metaWeblog.deletePost in both forms', () => {
  const newId = async () =>
    String(
      (await call('metaWeblog.newPost', str(blogId), ...login(), struct(member('title', str('Doomed')))))
        .value,
    );

  it('with the app key first and the publish flag (five parameters, as WordPress takes it)', async () => {
    const id = await newId();
    const res = await call(
      'metaWeblog.deletePost',
      str('0123456789ABCDEF'),
      str(id),
      ...login(),
      '<value><boolean>1</boolean></value>',
    );
    expect(res.value).toBe(true);
    expect((await call('metaWeblog.getPost', str(id), ...login())).fault?.faultCode).toBe(404);
  });

  it('with the app key first and no publish flag (four parameters)', async () => {
    const id = await newId();
    expect((await call('metaWeblog.deletePost', str(''), str(id), ...login())).value).toBe(true);
  });

  it('without the app key (three parameters)', async () => {
    const id = await newId();
    expect((await call('metaWeblog.deletePost', str(id), ...login())).value).toBe(true);
  });

  it("with the app key first, a wrong token is 403 and another user's post 404", async () => {
    const id = await newId();
    const wrong = await call(
      'metaWeblog.deletePost',
      str('k'),
      str(id),
      str('ada'),
      str('wrong-token'),
      '<value><boolean>1</boolean></value>',
    );
    expect(wrong.fault?.faultCode).toBe(403);
    const other = await call(
      'metaWeblog.deletePost',
      str('k'),
      str(id),
      ...login(bob),
      '<value><boolean>1</boolean></value>',
    );
    expect(other.fault?.faultCode).toBe(404);
  });
});

describe('Content-Type of the call', () => {
  const LIST = methodCall('mt.supportedTextFilters');

  it.each([
    ['no Content-Type', undefined],
    ['a form Content-Type', 'application/x-www-form-urlencoded'],
    ['text/plain', 'text/plain; charset=utf-8'],
  ])('a call with %s is read as XML', async (_label, type) => {
    const res = await send(h.url, {
      method: 'POST',
      path: '/xmlrpc',
      headers: type ? { 'content-type': type } : {},
      body: methodCall('metaWeblog.getRecentPosts', str(blogId), ...login(), str('1')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.text).toContain('<name>postid</name>');
  });

  it('a body labelled JSON is still 415', async () => {
    const res = await send(h.url, {
      method: 'POST',
      path: '/xmlrpc',
      headers: { 'content-type': 'application/json' },
      body: LIST,
    });
    expect(res.statusCode).toBe(415);
  });

  it('a form-labelled call is read as XML on the service itself too, and its login checked as it streams', async () => {
    const res = await postXml(
      h.publishingUrl,
      methodCall('mt.getCategoryList', str(blogId), str('ada'), str('bad')),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(res.fault?.faultCode).toBe(403);
  });
});
