// What real clients send is understood: ids as <int>, <i4>, in-range <i8> or digit strings; untyped
// values and CDATA as strings (whitespace kept); <nil/> as an absent optional parameter; a base64 given
// as a plain string; a single category as a string; struct member order meaning nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PNG } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let postId: number;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  postId = (await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, { title: 'Typed', description: 'x' }]))
    .value as number;
});
afterAll(() => h.stop());

const getPostWith = (idValue: string) =>
  h.postXml(
    `<?xml version="1.0"?><methodCall><methodName>metaWeblog.getPost</methodName><params>` +
      `<param><value>${idValue}</value></param><param><value><string>ada</string></value></param>` +
      `<param><value>${ada.token}</value></param></params></methodCall>`,
  );

describe('value types', () => {
  it.each([
    (id: number) => `<int>${id}</int>`,
    (id: number) => `<i4>${id}</i4>`,
    (id: number) => `<i8>${id}</i8>`,
    (id: number) => `<string>${id}</string>`,
    (id: number) => `${id}`,
    (id: number) => ` <int> ${id} </int> `,
  ])('post id as %p', async (form) => {
    const res = await getPostWith(form(postId));
    expect(res.fault).toBeUndefined();
    expect(res.value.id).toBe(postId);
  });

  it('untyped and CDATA strings keep their whitespace; <nil/> is an absent publish flag; members in any order', async () => {
    const xml =
      `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
      `<param><value>0</value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>` +
      `<param><value><struct>` +
      `<member><value><![CDATA[  <b>bold</b> & more  ]]></value><name>description</name></member>` +
      `<member><name>title</name><value>  Spaced  </value></member>` +
      `<member><name>categories</name><value><array><data><value>one</value><value><string>two</string></value></data></array></value></member>` +
      `</struct></value></param><param><value><nil/></value></param></params></methodCall>`;
    const res = await h.postXml(xml);
    expect(res.fault).toBeUndefined();
    const post = (await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token])).value;
    expect(post).toMatchObject({
      title: 'Spaced',
      description: '  <b>bold</b> &amp; more  ',
      categories: ['one', 'two'],
      post_status: 'published',
    });
  });

  it('<boolean>0</boolean> as the publish flag makes a draft', async () => {
    const res = await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, { description: 'x' }, false]);
    expect(res.text).toContain('<int>');
    const post = (await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token])).value;
    expect(post.post_status).toBe('draft');
  });

  it('base64 bits sent as a plain string are accepted', async () => {
    const res = await h.call('metaWeblog.newMediaObject', [
      '0',
      'ada',
      ada.token,
      { name: 'a.png', type: 'image/png', bits: PNG.toString('base64') },
    ]);
    expect(res.fault).toBeUndefined();
    expect((await h.get(new URL(res.value.url).pathname)).body.equals(PNG)).toBe(true);
  });
});
