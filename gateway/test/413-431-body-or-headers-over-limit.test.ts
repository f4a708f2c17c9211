import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  rawExchange,
  send,
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type TestGateway,
} from './helpers.js';

const KiB = 1024;
const MiB = 1024 * 1024;

/** A body sent with Transfer-Encoding: chunked (no Content-Length), in pieces of `piece` bytes. */
function chunked(data: Buffer, piece = 64 * KiB): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
  );
}

describe('request bodies', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['reader', 'webmention', 'publishing', 'archive']);
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('413 from a declared Content-Length over the route limit, in the area’s shape', async () => {
    const reader = await send(gateway.url, 'POST', '/feeds/v2/unread_entries.json', {
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(256 * KiB + 1, 0x20),
    });
    expect(reader.status).toBe(413);
    expect(reader.json()).toMatchObject({ status: 413, errors: [] });

    const wm = await send(gateway.url, 'POST', '/webmention', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.alloc(16 * KiB + 1, 0x61),
    });
    expect(wm.status).toBe(413);
    expect(wm.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('413 before the body is read: the gateway answers a 40 MiB XML-RPC upload at once', async () => {
    const head =
      'POST /xmlrpc HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n' +
      `Content-Length: ${40 * MiB}\r\n\r\n<methodCall>`;
    const answer = await rawExchange(gateway.url, head);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('431 for request headers over 16 KiB', async () => {
    const answer = await rawExchange(
      gateway.url,
      `GET /feeds/v2/entries.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * KiB)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('413 for a chunked body that grows past the limit', async () => {
    const res = await send(gateway.url, 'POST', '/webmention', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: chunked(Buffer.alloc(20 * KiB, 0x61), 4 * KiB),
    });
    expect(res.status).toBe(413);
    expect(res.text).toMatch(/too large/);
  });

  it('a chunked body within the limit goes through whole', async () => {
    const data = Buffer.alloc(15 * KiB, 0x62);
    const res = await send(gateway.url, 'POST', '/webmention', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: chunked(data, 1 * KiB),
    });
    expect(res.status).toBe(200);
    expect(res.json<Echo>().bodyBytes).toBe(data.length);
  });

  it('streams a 5 MiB XML-RPC body to publishing intact, declared or chunked', async () => {
    const data = randomBytes(5 * MiB);
    const sha = createHash('sha256').update(data).digest('hex');
    const declared = await send(gateway.url, 'POST', '/xmlrpc', {
      headers: { 'content-type': 'text/xml' },
      body: data,
    });
    expect(declared.status).toBe(200);
    expect(declared.json<Echo>()).toMatchObject({
      service: 'publishing',
      bodyBytes: data.length,
      bodySha256: sha,
    });

    const streamed = await send(gateway.url, 'POST', '/xmlrpc', {
      headers: { 'content-type': 'text/xml' },
      body: chunked(data),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.json<Echo>()).toMatchObject({ bodyBytes: data.length, bodySha256: sha });
  });

  it('an OPML import may be 5 MiB but not more', async () => {
    const ok = await send(gateway.url, 'POST', '/feeds/v2/imports.json', {
      headers: { 'content-type': 'text/xml' },
      body: Buffer.alloc(5 * MiB, 0x20),
    });
    expect(ok.status).toBe(200);
    const tooBig = await rawExchange(
      gateway.url,
      `POST /feeds/v2/imports.json HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${5 * MiB + 1}\r\n\r\n`,
    );
    expect(tooBig).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('an archive import of 60 MiB streams through', async () => {
    const data = Buffer.alloc(60 * MiB, 0x7b);
    const res = await send(gateway.url, 'POST', '/imported/archive/17/import', {
      headers: { 'content-type': 'application/json' },
      body: chunked(data, 1 * MiB),
    });
    expect(res.status).toBe(200);
    expect(res.json<Echo>().bodyBytes).toBe(data.length);
  });
});
