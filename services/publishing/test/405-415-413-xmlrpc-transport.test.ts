// Transport errors of POST /xmlrpc are HTTP statuses, not faults: another method → 405 with Allow: POST,
// a body labelled as another kind of document → 415 (none, a form's or text/plain's is read as XML),
// more than 36 MiB → 413 as one line of text/plain. Through the gateway and on the service itself
// (services are as strict as the gateway).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Harness } from './harness.js';
import { send } from './http.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const LIST = '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName></methodCall>';

describe.each([
  ['through the gateway', () => h.url],
  ['on the service', () => h.publishingUrl],
])('%s', (_where, base) => {
  it('GET, PUT and DELETE /xmlrpc → 405 with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await send(base(), { method, path: '/xmlrpc' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('a body labelled as another kind of document (JSON, multipart, bytes) → 415', async () => {
    for (const type of ['application/json', 'multipart/form-data; boundary=x', 'application/octet-stream']) {
      const res = await send(base(), {
        method: 'POST',
        path: '/xmlrpc',
        headers: { 'content-type': type },
        body: LIST,
      });
      expect(res.statusCode).toBe(415);
    }
  });

  it('no Content-Type, a form or text/plain: read as XML, as careless clients need', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const res = await send(base(), {
        method: 'POST',
        path: '/xmlrpc',
        headers: { 'content-type': type },
        body: LIST,
      });
      expect(res.statusCode).toBe(200);
      expect(res.text).toContain('<string>metaWeblog.newPost</string>');
    }
    const none = await send(base(), { method: 'POST', path: '/xmlrpc', body: LIST });
    expect(none.statusCode).toBe(200);
    expect(none.text).toContain('<string>metaWeblog.newPost</string>');
  });

  it('text/xml and application/xml with a charset parameter are accepted', async () => {
    for (const type of ['text/xml; charset=utf-8', 'application/xml', 'TEXT/XML']) {
      const res = await send(base(), {
        method: 'POST',
        path: '/xmlrpc',
        headers: { 'content-type': type },
        body: LIST,
      });
      expect(res.statusCode).toBe(200);
      expect(res.text).toContain('<string>metaWeblog.newPost</string>');
    }
  });

  it('a 40 MiB body → 413 text/plain', async () => {
    const body = Buffer.alloc(40 * 1024 * 1024, 0x20);
    const res = await send(base(), {
      method: 'POST',
      path: '/xmlrpc',
      headers: { 'content-type': 'text/xml' },
      body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text.trim()).not.toBe('');
  });
});
