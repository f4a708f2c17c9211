// newMediaObject refuses, without storing anything: a type outside image/audio/video/PDF (fault 401), bytes
// that disagree with the declared type such as HTML declared as PNG (401), more than 25 MB decoded (413),
// invalid base64 (−32602) and a struct without its required members (−32602).
import { describe, expect, it } from '@jest/globals';
import { useHarnessWithBaseline, type Account, type Harness } from './harness.js';
import { PNG } from './fixtures.js';

let h: Harness;
let ada: Account;
let before: Record<string, number>;

useHarnessWithBaseline((started) => {
  ({ h, ada, before } = started);
});

const upload = (media: Record<string, unknown>) =>
  h.call('metaWeblog.newMediaObject', ['0', 'ada', ada.token, media as any]);

describe('media refused', () => {
  it.each([
    ['text/html', Buffer.from('<html><script>alert(1)</script></html>')],
    ['application/x-msdownload', Buffer.from('MZ....')],
    ['text/plain', Buffer.from('hello')],
  ])('type %s → fault 401', async (type, bits) => {
    const res = await upload({ name: 'x', type, bits });
    expect(res.fault).toEqual({ faultCode: 401, faultString: 'That media type is not allowed.' });
  });

  it('HTML bytes declared as image/png → fault 401', async () => {
    for (const html of [
      '<!DOCTYPE html><p>hi',
      '  <script>alert(1)</script>',
      '<html><body>x</body></html>',
    ]) {
      const res = await upload({ name: 'evil.png', type: 'image/png', bits: Buffer.from(html) });
      expect(res.fault?.faultCode).toBe(401);
    }
    const pdf = await upload({ name: 'not.pdf', type: 'application/pdf', bits: PNG });
    expect(pdf.fault?.faultCode).toBe(401);
  });

  it('26 MB decoded → fault 413', async () => {
    const bits = Buffer.alloc(26_000_000);
    PNG.copy(bits);
    const res = await upload({ name: 'huge.png', type: 'image/png', bits });
    expect(res.statusCode).toBe(200);
    expect(res.fault?.faultCode).toBe(413);
  }, 60_000);

  it('invalid base64 → −32602', async () => {
    const xml = `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newMediaObject</methodName><params>
<param><value>0</value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>
<param><value><struct><member><name>name</name><value>a.png</value></member>
<member><name>type</name><value>image/png</value></member>
<member><name>bits</name><value><base64>!!!not base64***</base64></value></member></struct></value></param></params></methodCall>`;
    const res = await h.postXml(xml);
    expect(res.fault?.faultCode).toBe(-32602);
  });

  it('missing name, type or bits → −32602', async () => {
    for (const media of [
      { type: 'image/png', bits: PNG },
      { name: 'a.png', bits: PNG },
      { name: 'a.png', type: 'image/png' },
    ]) {
      expect((await upload(media)).fault?.faultCode).toBe(-32602);
    }
  });

  it('stored nothing', async () => {
    expect(await h.counts()).toEqual(before);
  });
});
