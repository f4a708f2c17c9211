// Bodies that are not well-formed XML-RPC never reach a method: malformed XML, a DOCTYPE (with the
// billion-laughs entity bomb: nothing is expanded, the answer is immediate), raw control characters, a
// document nested deeper than 32 levels or with too many elements. Each is HTTP 200 with fault −32700,
// and nothing is stored.
import http from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { useHarnessWithBaseline, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let before: Record<string, number>;

useHarnessWithBaseline((started) => {
  ({ h, ada, before } = started);
});

const newPostCall = (description: string, token: string) =>
  `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
  `<param><value>0</value></param><param><value>ada</value></param><param><value>${token}</value></param>` +
  `<param><value><struct><member><name>description</name><value>${description}</value></member></struct></value></param>` +
  `</params></methodCall>`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>`;

async function expectParseFault(xml: string | Buffer, reason: RegExp = /./) {
  const res = await h.postXml(xml);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
  expect(res.fault?.faultCode).toBe(-32700);
  expect(res.fault?.faultString).toMatch(/^Parse error/);
  expect(res.fault?.faultString).toMatch(reason);
  return res;
}

describe('fault −32700', () => {
  it.each([
    ['an unclosed element', '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName>'],
    ['mismatched tags', '<methodCall><methodName>x</methodCall></methodName>'],
    ['text that is not XML', 'hello, server'],
    ['an empty body', ''],
    ['two roots', '<methodCall><methodName>x</methodName></methodCall><methodCall/>'],
    ['an undeclared entity', newPostCall('&lol9;', 'whatever')],
  ])('for %s', async (_what, xml) => {
    await expectParseFault(xml);
  });

  it('for a POST with neither a body nor a Content-Type (not a 500)', async () => {
    const { hostname, port } = new URL(h.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: hostname, port, path: '/xmlrpc', method: 'POST' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<name>faultCode</name><value><int>-32700</int>');
    expect(answer.body).toMatch(/Parse error: the request has no body/);
  });

  it('for a billion-laughs document, without expanding anything', async () => {
    const started = Date.now();
    const res = await expectParseFault(`${BILLION_LAUGHS}\n${newPostCall('&lol9;', ada.token)}`, /DOCTYPE/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.text.length).toBeLessThan(1000);
    expect(res.text).not.toContain('lollol');
  });

  it('for a DOCTYPE even without entities, and an external DTD', async () => {
    await expectParseFault(`<!DOCTYPE methodCall>${newPostCall('x', ada.token)}`, /DOCTYPE/);
    await expectParseFault(
      `<!DOCTYPE methodCall SYSTEM "http://127.0.0.1:1/x.dtd">${newPostCall('x', ada.token)}`,
      /DOCTYPE/,
    );
  });

  it('for a raw control character in the body', async () => {
    await expectParseFault(newPostCall('bad \u0001 char', ada.token));
  });

  it('for a document nested 33 levels deep (32 is fine)', async () => {
    // methodCall > params > param > value = 4 levels; each array adds array > data > value = 3.
    const nest = (arrays: number, extra: string) =>
      `<methodCall><methodName>system.listMethods</methodName><params><param><value>` +
      '<array><data><value>'.repeat(arrays) +
      extra +
      '</value></data></array>'.repeat(arrays) +
      `</value></param></params></methodCall>`;
    // 4 + 3·9 = 31 levels, plus <string> = 32: parses, then fails on the parameter count instead.
    const fine = await h.postXml(nest(9, '<string>x</string>'));
    expect(fine.fault?.faultCode).toBe(-32602);
    // 4 + 3·9 + <struct><member> = 33.
    await expectParseFault(
      nest(9, '<struct><member><name>a</name><value>b</value></member></struct>'),
      /deeper/,
    );
    await expectParseFault(nest(200, 'x'), /deeper/);
  });

  it('for more than 20,000 elements', async () => {
    const values = '<value><int>1</int></value>'.repeat(10_001);
    await expectParseFault(
      `<methodCall><methodName>system.listMethods</methodName><params><param><value><array><data>${values}</data></array></value></param></params></methodCall>`,
      /elements/,
    );
  });

  it('for a string value over 1 MiB', async () => {
    await expectParseFault(newPostCall('x'.repeat(1024 * 1024 + 1), ada.token), /too long/);
  });

  it('stores nothing for any of them', async () => {
    expect(await h.counts()).toEqual(before);
  });
});
