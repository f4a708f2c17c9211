// Verification decides by what the source really links: <a href> and <img src> (also relative ones)
// verify; the target only in text, only in a comment or absent does not. JSON sources verify on a
// string value equal to the target, text/plain sources on a substring; other types never.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADA_POST, hEntry, startHarness, withSites, type Harness } from './harness.js';

describe('verification: is the target linked?', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await withSites(h);
  });
  afterAll(() => h.stop());

  async function verify(
    path: string,
    answer: { body: string; type?: string },
    target = ADA_POST,
    host = 'carol.example',
  ) {
    h.sources.set(host, path, {
      headers: { 'content-type': answer.type ?? 'text/html; charset=utf-8' },
      body: answer.body,
    });
    const source = h.sources.url(host, path);
    expect((await h.send(source, target)).statusCode).toBe(202);
    return h.waitForStatus(source, target, ['verified', 'no_link', 'failed', 'blocked', 'source_not_found']);
  }

  it('<a href> → verified; <img src> → verified', async () => {
    expect((await verify('/a', { body: hEntry(`<a href="${ADA_POST}">hello</a>`) })).status).toBe('verified');
    expect((await verify('/img', { body: `<p><img src="${ADA_POST}"></p>` })).status).toBe('verified');
  });

  it('a relative href resolving to the target → verified (also through <base>)', async () => {
    // The source is another page of the same host, its href relative to the source's own URL.
    const target = h.sources.url('ada.example', '/2026/x.html');
    expect(
      (await verify('/notes/1', { body: '<a href="../2026/x.html">x</a>' }, target, 'ada.example')).status,
    ).toBe('verified');
    const viaBase = await verify('/base', {
      body: '<html><head><base href="https://ada.example/2026/11/21/"></head><body><a href="hello.html">x</a></body></html>',
    });
    expect(viaBase.status).toBe('verified');
  });

  it('target only in text, only inside an HTML comment, escaped, or absent → not verified', async () => {
    expect((await verify('/text', { body: `<p>see ${ADA_POST}</p>` })).status).toBe('no_link');
    expect((await verify('/comment', { body: `<p>x</p><!-- <a href="${ADA_POST}">x</a> -->` })).status).toBe(
      'no_link',
    );
    expect(
      (await verify('/escaped', { body: `<pre>&lt;a href="${ADA_POST}"&gt;x&lt;/a&gt;</pre>` })).status,
    ).toBe('no_link');
    expect((await verify('/absent', { body: '<a href="https://ada.example/other">x</a>' })).status).toBe(
      'no_link',
    );
  });

  it('JSON source containing the target as a value → verified; as a key only → not', async () => {
    expect(
      (await verify('/j', { type: 'application/json', body: JSON.stringify({ a: [{ b: ADA_POST }] }) }))
        .status,
    ).toBe('verified');
    expect(
      (await verify('/jk', { type: 'application/json', body: JSON.stringify({ [ADA_POST]: 1 }) })).status,
    ).toBe('no_link');
  });

  it('text/plain containing it → verified; another media type → not', async () => {
    expect((await verify('/t', { type: 'text/plain', body: `I liked ${ADA_POST} a lot` })).status).toBe(
      'verified',
    );
    expect(
      (await verify('/bin', { type: 'application/octet-stream', body: `<a href="${ADA_POST}">x</a>` }))
        .status,
    ).toBe('no_link');
  });

  it('the fetch asks for the documented Accept header', async () => {
    const req = h.sources.requests.find((r) => r.path === '/a');
    expect(req?.headers.accept).toBe(
      'text/html, application/xhtml+xml;q=0.9, application/json;q=0.8, text/plain;q=0.7, */*;q=0.1',
    );
  });
});
