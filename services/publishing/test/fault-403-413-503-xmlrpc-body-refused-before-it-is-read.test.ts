// POST /xmlrpc checks the login while the body streams in: a 30 MB newMediaObject with a wrong token is
// answered (fault 403) as soon as its login parameters have arrived, long before the client has sent the
// rest. Calls other than media uploads are limited to 4 MiB (HTTP 413), and at most two bodies over
// 1 MiB are read at once (a third gets HTTP 503 with Retry-After). docs/api/publishing.md, "Limits".
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, sendOverWire } from '@murmur/testing';
import { readMethodResponse } from './http.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness({ gateway: false });
  ada = await h.createUser('ada');
  await h.siteOf(ada.id);
});
afterAll(() => h.stop());

const MB = 1024 * 1024;

function uploadHead(method: string, login: string, token: string): string {
  return (
    `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>` +
    `<param><value><string>0</string></value></param>` +
    `<param><value><string>${login}</string></value></param>` +
    `<param><value><string>${token}</string></value></param>` +
    '<param><value><struct><member><name>name</name><value>a.png</value></member>' +
    '<member><name>type</name><value>image/png</value></member>' +
    '<member><name>bits</name><value><base64>'
  );
}
const UPLOAD_TAIL = '</base64></value></member></struct></value></param></params></methodCall>';

interface SlowUpload {
  /** Resolves with the status and body once the server answers. */
  answer: Promise<{ status: number; headers: Record<string, unknown>; text: string; sentBytes: number }>;
  sentBytes(): number;
  abort(): void;
}

/**
 * Declares `totalBytes` and sends the head, then base64 in 256 KiB pieces, waiting for the socket to
 * drain after each: a server that stops reading stops the client too.
 */
function slowUpload(head: string, totalBytes: number, options: { pauseAfter?: number } = {}): SlowUpload {
  const { hostname, port } = new URL(h.publishingUrl);
  let sent = 0;
  let aborted = false;
  const req = httpRequest({
    host: hostname,
    port,
    method: 'POST',
    path: '/xmlrpc',
    agent: false,
    headers: { 'content-type': 'text/xml', 'content-length': String(totalBytes) },
  });
  const answer = new Promise<{
    status: number;
    headers: Record<string, unknown>;
    text: string;
    sentBytes: number;
  }>((resolve, reject) => {
    req.on('response', (res) => {
      const atAnswer = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          sentBytes: atAnswer,
        }),
      );
    });
    req.on('error', (err) => {
      if (!aborted) reject(err);
    });
  });
  const piece = Buffer.alloc(256 * 1024, 'A');
  void (async () => {
    const write = (chunk: Buffer | string) =>
      new Promise<void>((resolve) => {
        sent += Buffer.byteLength(chunk);
        if (req.write(chunk)) resolve();
        else req.once('drain', () => resolve());
      });
    await write(head);
    const body = totalBytes - Buffer.byteLength(head) - UPLOAD_TAIL.length;
    let left = body - (body % 4);
    while (left > 0 && !aborted && !req.destroyed) {
      if (options.pauseAfter !== undefined && sent >= options.pauseAfter) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const n = Math.min(left, piece.length);
      await write(piece.subarray(0, n));
      left -= n;
    }
    if (!aborted && !req.destroyed) req.end(' '.repeat(body % 4) + UPLOAD_TAIL);
  })().catch(() => undefined);
  return {
    answer,
    sentBytes: () => sent,
    abort: () => {
      aborted = true;
      req.destroy();
    },
  };
}

describe('a media upload with a wrong token', () => {
  it('is answered with fault 403 before the client has sent most of its 30 MB', async () => {
    const rssBefore = process.memoryUsage().rss;
    const upload = slowUpload(uploadHead('metaWeblog.newMediaObject', 'ada', 'wrong-token'), 30_000_000);
    const answer = await upload.answer;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    const { fault } = await readMethodResponse(answer.text);
    expect(fault).toEqual({ faultCode: 403, faultString: 'Incorrect username or app token.' });
    // The head and whatever the socket buffers were on their way; nowhere near the 30 MB.
    expect(answer.sentBytes).toBeLessThan(10 * MB);
    upload.abort();
    // The service did not buffer the body it refused (tests and service share this process).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(60 * MB);
  }, 60_000);

  it('blogger.deletePost with a wrong token (login after the app key and post id) is refused the same way', async () => {
    const xml =
      '<?xml version="1.0"?><methodCall><methodName>blogger.deletePost</methodName><params>' +
      '<param><value>key</value></param><param><value><int>1</int></value></param>' +
      '<param><value>ada</value></param><param><value>wrong</value></param>' +
      '<param><value><boolean>1</boolean></value></param></params></methodCall>';
    const res = await h.postXml(xml);
    expect(res.fault?.faultCode).toBe(403);
  });
});

describe('body limits', () => {
  it('a call other than a media upload over 4 MiB → 413 text/plain, even with the right token', async () => {
    const xml =
      '<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>' +
      `<param><value>0</value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>` +
      `<param><value><struct><member><name>description</name><value>${'x'.repeat(4 * MB + 10)}</value></member>` +
      '</struct></value></param></params></methodCall>';
    const before = await h.counts();
    const res = await sendOverWire(h.publishingUrl, {
      method: 'POST',
      url: '/xmlrpc',
      headers: { 'content-type': 'text/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(await h.counts()).toEqual(before);
  });

  it('a call of just under 4 MiB is read and answered', async () => {
    const xml =
      '<?xml version="1.0"?><methodCall><methodName>metaWeblog.getRecentPosts</methodName><params>' +
      `<param><value>0</value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>` +
      `<param><value><int>1</int></value></param></params></methodCall>${' '.repeat(4 * MB - 400)}`;
    const res = await h.postXml(xml);
    expect(res.statusCode).toBe(200);
    expect(res.fault).toBeUndefined();
  });

  it('a third body over 1 MiB while two are being read → 503 with Retry-After; later ones are read again', async () => {
    const head = uploadHead('metaWeblog.newMediaObject', 'ada', ada.token);
    const first = slowUpload(head, 20 * MB, { pauseAfter: 2 * MB });
    const second = slowUpload(head, 20 * MB, { pauseAfter: 2 * MB });
    await eventually(async () =>
      first.sentBytes() >= 2 * MB && second.sentBytes() >= 2 * MB ? true : undefined,
    );
    const third = slowUpload(head, 20 * MB);
    const refused = await third.answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.text).toMatch(/large uploads/);
    third.abort();
    first.abort();
    second.abort();
    // Once the slow ones are gone, a large body is read again.
    const res = await eventually(async () => {
      const attempt = slowUpload(uploadHead('metaWeblog.newMediaObject', 'ada', 'wrong'), 3 * MB);
      const answer = await attempt.answer;
      attempt.abort();
      return answer.status === 200 ? answer : undefined;
    });
    expect((await readMethodResponse(res.text)).fault?.faultCode).toBe(403);
  }, 60_000);
});
