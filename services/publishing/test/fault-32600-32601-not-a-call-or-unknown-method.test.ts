// Well-formed XML that is not a usable <methodCall> is −32600; a method we do not serve (including wp.*
// and system.multicall) is −32601. Both are HTTP 200 and change nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  await h.siteOf(ada.id);
});
afterAll(() => h.stop());

describe('fault −32600', () => {
  it.each([
    ['a <methodCall> without <methodName>', '<methodCall><params/></methodCall>'],
    ['an empty <methodName>', '<methodCall><methodName> </methodName></methodCall>'],
    ['another root element', '<methodResponse><params/></methodResponse>'],
    [
      'an unknown value type',
      '<methodCall><methodName>system.listMethods</methodName><params><param><value><float>1</float></value></param></params></methodCall>',
    ],
    [
      'a struct member without a value',
      '<methodCall><methodName>x</methodName><params><param><value><struct><member><name>a</name></member></struct></value></param></params></methodCall>',
    ],
    [
      'text inside <struct>',
      '<methodCall><methodName>x</methodName><params><param><value><struct>oops</struct></value></param></params></methodCall>',
    ],
    [
      'two values in one <value>',
      '<methodCall><methodName>x</methodName><params><param><value><int>1</int><int>2</int></value></param></params></methodCall>',
    ],
  ])('for %s', async (_what, xml) => {
    const before = await h.counts();
    const res = await h.postXml(xml);
    expect(res.statusCode).toBe(200);
    expect(res.fault?.faultCode).toBe(-32600);
    expect(await h.counts()).toEqual(before);
  });
});

describe('fault −32601', () => {
  it.each([
    'wp.getUsersBlogs',
    'system.multicall',
    'metaWeblog.nonsense',
    'toString',
    '__proto__',
    'constructor',
  ])('for %s', async (method) => {
    const res = await h.call(method, ['0', 'ada', ada.token]);
    expect(res.statusCode).toBe(200);
    expect(res.fault).toEqual({ faultCode: -32601, faultString: `Unknown method: ${method}` });
  });
});
