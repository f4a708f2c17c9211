// A WebSub hub and publisher of our own on 127.0.0.1 for the reader's tests, playing the part
// websub.rocks plays for a subscriber under test: it records subscription requests, verifies intent at
// the callback as a hub does (GET with hub.challenge), and delivers signed content to verified callbacks.
// The reader's callbacks name PUBLIC_URL (a name no test resolves); the hub sends them to the reader
// under test instead (`reader`).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { send, type WireResponse } from '@murmur/testing';
import { PUBLIC_URL } from './harness.js';

export interface HubRequest {
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface HubSubscription {
  topic: string;
  callback: string;
  secret: string | undefined;
  leaseSeconds: number | undefined;
  verified: boolean;
}

export interface HubDecision {
  status: number;
  /** Verify intent at the callback after answering (with `topic` instead of the requested one). */
  verify: boolean;
  topic?: string;
  /** A Location header (for a redirecting hub). */
  location?: string;
}

export interface FakeHub {
  origin: string;
  url(path?: string): string;
  /** Every POST the hub received, in order. */
  requests: HubRequest[];
  /** Requests with `hub.mode=mode`, in order. */
  requestsOf(mode: string): HubRequest[];
  /** Verified subscriptions by callback. */
  subscriptions: Map<string, HubSubscription>;
  /**
   * What the hub does when a request comes: `verify` (default: 202, then verify intent at once, as a
   * hub does asynchronously), `refuse` (HTTP status, no verification) or a function given the request.
   */
  onRequest: (req: HubRequest) => HubDecision;
  /** The lease the hub grants (hub.lease_seconds of its verification). */
  leaseSeconds: number;
  /** The answers the callback gave to verifications, newest last. */
  verifications: Array<{ mode: string; status: number; body: string }>;
  /** GETs the callback with hub.* parameters, as a hub verifying intent. */
  verify(callback: string, params: Record<string, string>): Promise<WireResponse>;
  /** POSTs `body` to the callback; `sign` picks the method, a wrong secret, or none. */
  deliver(
    callback: string,
    body: string,
    options?: {
      contentType?: string;
      sign?: 'sha1' | 'sha256' | 'sha384' | 'sha512' | 'wrong' | 'none';
      secret?: string;
    },
  ): Promise<WireResponse>;
  /** Delivers `body` to every verified subscriber of `topic`; the answers. */
  publish(topic: string, body: string, contentType?: string): Promise<WireResponse[]>;
  /** Waits until every intent verification under way has its answer. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The reader's callback as the reader under test serves it. */
export function localCallback(callback: string, readerUrl: string): string {
  return callback.startsWith(PUBLIC_URL) ? readerUrl + callback.slice(PUBLIC_URL.length) : callback;
}

export async function startFakeHub(readerUrl: () => string): Promise<FakeHub> {
  const requests: HubRequest[] = [];
  const subscriptions = new Map<string, HubSubscription>();
  const verifications: FakeHub['verifications'] = [];
  const running = new Set<Promise<unknown>>();

  const verifyCall = (callback: string, params: Record<string, string>) => {
    const url = new URL(localCallback(callback, readerUrl()));
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return send(url.origin, { method: 'GET', url: url.pathname + url.search });
  };

  const verifyIntent = async (req: HubRequest, topicOverride?: string) => {
    const mode = req.params.get('hub.mode')!;
    const callback = req.params.get('hub.callback')!;
    const challenge = randomBytes(12).toString('hex');
    const res = await verifyCall(callback, {
      'hub.mode': mode,
      'hub.topic': topicOverride ?? req.params.get('hub.topic')!,
      'hub.challenge': challenge,
      ...(mode === 'subscribe' ? { 'hub.lease_seconds': String(hub.leaseSeconds) } : {}),
    });
    verifications.push({ mode, status: res.statusCode, body: res.body });
    const confirmed = res.statusCode >= 200 && res.statusCode < 300 && res.body === challenge;
    if (!confirmed) return;
    if (mode === 'subscribe') {
      subscriptions.set(callback, {
        topic: req.params.get('hub.topic')!,
        callback,
        secret: req.params.get('hub.secret') ?? undefined,
        leaseSeconds: hub.leaseSeconds,
        verified: true,
      });
    } else subscriptions.delete(callback);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: HubRequest = {
        path: req.url ?? '/',
        params: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        headers: req.headers,
      };
      requests.push(request);
      const decision = hub.onRequest(request);
      res.writeHead(decision.status, {
        'content-type': 'text/plain',
        ...(decision.location ? { location: decision.location } : {}),
      });
      res.end(decision.status === 202 ? 'Accepted' : 'Refused');
      if (decision.verify) {
        const p = verifyIntent(request, decision.topic).finally(() => running.delete(p));
        running.add(p);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (body: string, method: string, secret: string) =>
    `${method}=${createHmac(method, secret).update(body).digest('hex')}`;

  const hub: FakeHub = {
    origin,
    url: (path = '/hub') => origin + path,
    requests,
    requestsOf: (mode) => requests.filter((r) => r.params.get('hub.mode') === mode),
    subscriptions,
    onRequest: () => ({ status: 202, verify: true }),
    leaseSeconds: 86_400,
    verifications,
    verify: verifyCall,
    async deliver(callback, body, options = {}) {
      const secret = options.secret ?? subscriptions.get(callback)?.secret ?? '';
      const how = options.sign ?? 'sha256';
      const headers: Record<string, string> = {
        'content-type': options.contentType ?? 'application/atom+xml',
      };
      if (how === 'wrong') headers['x-hub-signature'] = sign(body, 'sha256', secret + 'x');
      else if (how !== 'none') headers['x-hub-signature'] = sign(body, how, secret);
      const url = new URL(localCallback(callback, readerUrl()));
      return send(url.origin, { method: 'POST', url: url.pathname, headers, payload: body });
    },
    async publish(topic, body, contentType) {
      const subs = [...subscriptions.values()].filter((s) => s.topic === topic);
      return Promise.all(subs.map((s) => hub.deliver(s.callback, body, contentType ? { contentType } : {})));
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return hub;
}

/** An Atom feed naming `hub` and `self` in its own links, with `entries` (newest first). */
export function atomWithHub(
  hub: string | null,
  self: string | null,
  entries: Array<{ id: string; title: string }>,
): string {
  const links =
    (self ? `<link rel="self" href="${self}"/>` : '') + (hub ? `<link rel="hub" href="${hub}"/>` : '');
  const body = entries
    .map(
      (e) =>
        `<entry><id>urn:${e.id}</id><title>${e.title}</title><link href="/posts/${e.id}"/>` +
        `<updated>2026-11-20T10:00:00Z</updated><content type="html">&lt;p&gt;${e.title}&lt;/p&gt;</content></entry>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Pushed</title>` +
    `<id>urn:feed</id><updated>2026-11-20T10:00:00Z</updated>${links}${body}</feed>`
  );
}
