// `Expect: 100-continue`, as curl sends it for any body over 1 MB: the client gets 100 Continue, sends
// the body, and the service's answer comes back. A request the gateway will refuse anyway gets its
// answer at once, without 100 (the body is never uploaded); an expectation the gateway cannot meet
// gets 417.
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  startFakeServices,
  startGateway,
  targetsOf,
  type Echo,
  type FakeService,
  type TestGateway,
} from './helpers.js';

/** What came back on the socket; `text` grows as bytes arrive. */
class Wire {
  text = '';
  private waiters: Array<() => void> = [];
  readonly socket: Socket;
  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('latin1');
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(baseUrl: string): Promise<Wire> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new Wire(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once `test` holds for the received text, or the socket closes, or `ms` pass. */
  async until(test: (text: string) => boolean, ms = 5000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!test(this.text) && !this.socket.destroyed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.text;
  }
}

/** A complete final response (headers plus a Content-Length body) after any 1xx. */
function finalResponse(text: string): { status: number; body: string } | null {
  const final = text.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
  const end = final.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const head = final.slice(0, end);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  const body = final.slice(end + 4);
  if (Buffer.byteLength(body, 'latin1') < length) return null;
  return { status: Number(head.slice(9, 12)), body: Buffer.from(body, 'latin1').toString('utf8') };
}

describe('Expect: 100-continue', () => {
  let services: FakeService[];
  let gateway: TestGateway;

  beforeAll(async () => {
    services = await startFakeServices(['reader', 'identity']);
    gateway = await startGateway(targetsOf(services));
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all(services.map((s) => s.close()));
  });

  it('a curl-style 2 MB upload gets 100 Continue, then the service’s 200 with the whole body passed on', async () => {
    const body = randomBytes(2 * 1024 * 1024);
    const wire = await Wire.open(gateway.url);
    try {
      wire.socket.write(
        'POST /feeds/v2/imports.json HTTP/1.1\r\nHost: murmur.test\r\nUser-Agent: curl/8.5.0\r\n' +
          `Content-Type: text/xml\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
      const interim = await wire.until((t) => t.includes('\r\n\r\n'));
      expect(interim).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);

      wire.socket.write(body);
      await wire.until((t) => finalResponse(t) !== null, 15_000);
      const res = finalResponse(wire.text)!;
      expect(res.status).toBe(200);
      const echo = JSON.parse(res.body) as Echo;
      expect(echo.service).toBe('reader');
      expect(echo.bodyBytes).toBe(body.length);
      expect(echo.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
      expect(echo.headers.expect).toBeUndefined();
    } finally {
      wire.socket.destroy();
    }
  });

  it.each([
    ['a body over the route’s limit', 'POST /feeds/v2/imports.json', 6 * 1024 * 1024, 413],
    ['a path no endpoint serves', 'POST /feeds/v2/nothing.json', 2 * 1024 * 1024, 404],
  ])(
    '%s is refused at once, without 100 Continue and without reading the body',
    async (_, line, size, status) => {
      const wire = await Wire.open(gateway.url);
      try {
        wire.socket.write(
          `${line} HTTP/1.1\r\nHost: murmur.test\r\nContent-Length: ${size}\r\nExpect: 100-continue\r\n\r\n`,
        );
        await wire.until((t) => finalResponse(t) !== null);
        expect(wire.text).not.toContain(' 100 Continue');
        expect(finalResponse(wire.text)?.status).toBe(status);
        expect(wire.text).toMatch(/\r\nconnection: close\r\n/i);
      } finally {
        wire.socket.destroy();
      }
    },
  );

  it('an expectation other than 100-continue gets 417 and reaches no service', async () => {
    const wire = await Wire.open(gateway.url);
    try {
      wire.socket.write(
        'POST /account/signin HTTP/1.1\r\nHost: murmur.test\r\nContent-Length: 3\r\nExpect: teapot\r\n\r\nabc',
      );
      await wire.until((t) => /^HTTP\/1\.1 \d{3}[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/.test(t));
      expect(wire.text).toMatch(/^HTTP\/1\.1 417 /);
      expect(wire.text).not.toContain('"service"');
    } finally {
      wire.socket.destroy();
    }
  });
});
