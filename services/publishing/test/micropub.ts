// Micropub requests for tests, through the gateway like a client's. IndieAuth tokens with chosen scopes come
// from a table answering `identity.token.verify` exactly as identity answers it for the tokens its
// IndieAuth flow issues (services/identity/test/200-indieauth-tokens-on-other-endpoints.test.ts proves
// that answer; the e2e test test-e2e/test/micropub-npm-client-single-process.test.ts runs the real flow).
// App tokens go to the real identity. A local server on 127.0.0.1 plays the web photos are fetched from.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { identity } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { sha256Hex } from '@murmur/core';
import { PNG } from './fixtures.js';
import { startHarness, type Account, type Harness, type HarnessOptions } from './harness.js';
import { send, type TestResponse } from './http.js';

/** A JPEG's first bytes (what the sniffer checks) and some body. */
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 7),
  Buffer.from([0xff, 0xd9]),
]);
/** A 1×1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export { PNG };

interface Grant {
  userId: number;
  username: string;
  scopes: string[];
}

export interface MicropubHarness {
  h: Harness;
  ada: Account;
  /** An IndieAuth token of ada's with these scopes (space-separated). */
  tokenWith(scopes: string, who?: Account): string;
  /** POST /micropub (or another path) with a form, JSON or multipart body. */
  post(
    token: string | null,
    body: Body,
    options?: { path?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  /** GET /micropub?… */
  query(
    token: string | null,
    params: Record<string, string | string[]>,
    path?: string,
  ): Promise<TestResponse>;
  /** Where photos "on the web" are served: `${web}/sunset.jpg`, `/city.jpg`, `/logo.png`, `/anim.gif`, `/page.html`. */
  web: string;
  stop(): Promise<void>;
}

export type Body =
  | { form: Record<string, string | string[]> }
  | { json: unknown }
  | { multipart: { fields?: Record<string, string | string[]>; files?: MultipartFile[] } }
  | { raw: string | Buffer; type: string };

export interface MultipartFile {
  name: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

export function formBody(fields: Record<string, string | string[]>): string {
  const pairs = new URLSearchParams();
  for (const [k, v] of Object.entries(fields))
    for (const one of Array.isArray(v) ? v : [v]) pairs.append(k, one);
  return pairs.toString();
}

export function multipartBody(
  fields: Record<string, string | string[]>,
  files: MultipartFile[],
): { body: Buffer; type: string } {
  const boundary = `----murmur${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    for (const one of Array.isArray(v) ? v : [v])
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${one}\r\n`),
      );
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

function encode(body: Body): { body: string | Buffer; type: string } {
  if ('form' in body)
    return { body: formBody(body.form), type: 'application/x-www-form-urlencoded; charset=utf-8' };
  if ('json' in body) return { body: JSON.stringify(body.json), type: 'application/json' };
  if ('multipart' in body) return multipartBody(body.multipart.fields ?? {}, body.multipart.files ?? []);
  return { body: body.raw, type: body.type };
}

/** Answers identity.token.verify for the table's tokens; every other question goes to identity. */
function withIndieAuthTokens(bus: Bus, grants: Map<string, Grant>): Bus {
  return new Proxy(bus, {
    get(target, key) {
      if (key === 'request') {
        return async (def: { subject: string }, payload: { token?: string }, options?: unknown) => {
          const grant = payload.token === undefined ? undefined : grants.get(payload.token);
          if (def.subject === identity.tokenVerify.subject && grant) {
            return {
              active: true,
              userId: grant.userId,
              username: grant.username,
              kind: 'indieauth',
              scopes: grant.scopes,
              clientId: 'https://client.example/',
              tokenHash: sha256Hex(payload.token!),
            };
          }
          return (target.request as (...a: unknown[]) => Promise<unknown>)(def, payload, options);
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function startWeb(): Promise<Server> {
  const files: Record<string, [string, Buffer]> = {
    '/sunset.jpg': ['image/jpeg', JPEG],
    '/city.jpg': ['image/jpeg', JPEG],
    '/logo.png': ['image/png', PNG],
    '/anim.gif': ['image/gif', GIF],
    '/page.html': ['text/html', Buffer.from('<!doctype html><p>not a photo</p>')],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function startMicropubHarness(options: HarnessOptions = {}): Promise<MicropubHarness> {
  const grants = new Map<string, Grant>();
  const web = await startWeb();
  const h = await startHarness({
    ...options,
    // Photos by URL are fetched from the local web server; 127.0.0.2 stays forbidden (SSRF tests).
    env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', MICROPUB_REQUESTS_PER_MINUTE: '100000', ...options.env },
    wrapBus: (bus) => withIndieAuthTokens(options.wrapBus ? options.wrapBus(bus) : bus, grants),
  });
  const ada = await h.createUser('ada', { name: 'Ada Lovelace' });
  await h.siteOf(ada.id);
  let ip = 0;
  const clientIp = () => `203.0.113.${(ip++ % 250) + 1}`;
  return {
    h,
    ada,
    web: `http://127.0.0.1:${(web.address() as AddressInfo).port}`,
    tokenWith(scopes, who = ada) {
      const token = `mp-${randomBytes(16).toString('hex')}`;
      grants.set(token, {
        userId: who.id,
        username: who.username,
        scopes: scopes.split(/\s+/).filter(Boolean),
      });
      return token;
    },
    post(token, body, opts = {}) {
      const encoded = encode(body);
      return send(h.url, {
        method: 'POST',
        path: opts.path ?? '/micropub',
        headers: {
          'content-type': encoded.type,
          'x-forwarded-for': clientIp(),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...opts.headers,
        },
        body: encoded.body,
      });
    },
    query(token, params, path = '/micropub') {
      const q = formBody(params);
      return send(h.url, {
        path: `${path}?${q}`,
        headers: { 'x-forwarded-for': clientIp(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
    async stop() {
      await h.stop();
      await new Promise((r) => web.close(r));
    },
  };
}

/** The path of a URL on the harness (Location headers are absolute). */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export const json = (res: TestResponse) => JSON.parse(res.text) as Record<string, any>;
