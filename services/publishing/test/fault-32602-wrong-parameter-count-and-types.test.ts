// Parameters are checked before anything happens: a wrong count (newPost with 3) or a wrong type (a
// struct where a string belongs, a non-numeric post id, a non-boolean publish flag, an out-of-range int)
// is −32602 and stores nothing.
import { describe, expect, it } from '@jest/globals';
import { useHarnessWithBaseline, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let before: Record<string, number>;

useHarnessWithBaseline((started) => {
  ({ h, ada, before } = started);
});

describe('fault −32602', () => {
  it('newPost with 3 parameters (and with 6)', async () => {
    const three = await h.call('metaWeblog.newPost', ['0', 'ada', ada.token]);
    expect(three.statusCode).toBe(200);
    expect(three.fault?.faultCode).toBe(-32602);
    expect(three.fault?.faultString).toMatch(/Wrong number of parameters/);
    const six = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { description: 'x' },
      true,
      'extra',
    ]);
    expect(six.fault?.faultCode).toBe(-32602);
    expect((await h.call('system.listMethods', ['x'])).fault?.faultCode).toBe(-32602);
  });

  it.each([
    ['a struct as the site id', 'metaWeblog.newPost', [{ a: '1' }, 'ada', 'TOKEN', { description: 'x' }]],
    ['a string as the content struct', 'metaWeblog.newPost', ['0', 'ada', 'TOKEN', 'not a struct']],
    ['an array as the username', 'metaWeblog.newPost', ['0', ['ada'], 'TOKEN', { description: 'x' }]],
    ['a word as the post id', 'metaWeblog.getPost', ['abc', 'ada', 'TOKEN']],
    ['a negative post id', 'metaWeblog.getPost', [-4, 'ada', 'TOKEN']],
    [
      'a string as the publish flag',
      'metaWeblog.newPost',
      ['0', 'ada', 'TOKEN', { description: 'x' }, 'maybe'],
    ],
    ['an int as the title', 'metaWeblog.newPost', ['0', 'ada', 'TOKEN', { title: 5.5, description: 'x' }]],
    ['a 256-character title', 'metaWeblog.newPost', ['0', 'ada', 'TOKEN', { title: 'x'.repeat(256) }]],
    [
      'a description over 512 KiB',
      'metaWeblog.newPost',
      ['0', 'ada', 'TOKEN', { description: 'é'.repeat(270_000) }],
    ],
  ])('for %s', async (_what, method, params) => {
    const withToken = (params as any[]).map((p) => (p === 'TOKEN' ? ada.token : p));
    const res = await h.call(method as string, withToken);
    expect(res.statusCode).toBe(200);
    expect(res.fault?.faultCode).toBe(-32602);
  });

  it.each([
    ['an <int> beyond 32 bits', '<int>2147483648</int>'],
    ['an <i8> beyond 32 bits', '<i8>9007199254740993</i8>'],
    ['a <boolean> other than 0 or 1', '<boolean>true</boolean>'],
    ['a non-finite <double>', '<double>1e999</double>'],
    ['an <int> that is not a number', '<int>twelve</int>'],
  ])('for %s', async (_what, value) => {
    const res = await h.postXml(
      `<methodCall><methodName>metaWeblog.getPost</methodName><params><param><value>${value}</value></param>` +
        `<param><value>ada</value></param><param><value>${ada.token}</value></param></params></methodCall>`,
    );
    expect(res.fault?.faultCode).toBe(-32602);
  });

  it('stored nothing', async () => {
    expect(await h.counts()).toEqual(before);
  });
});
