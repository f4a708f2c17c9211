// The hub for tests: the real identity, publishing and feeds services and the websub service on a
// private memory bus, the real gateway in front (PUBLIC_URL is the gateway; the hub reads the feeds
// from it, WEBSUB_FEEDS_ORIGIN), and subscriber stand-ins on 127.0.0.1 that OUTBOUND_ALLOW_HOSTS lets
// the hub reach. Posts are published through XML-RPC as a blog editor would.
import { randomUUID } from 'node:crypto';
import type { Bus } from '@murmur/bus';
import type { Clock } from '@murmur/core';
import { connectBus } from '@murmur/runtime';
import {
  eventually,
  freePort,
  sendOverWire,
  testLogger,
  testServiceEnv,
  testServices,
  type WireResponse,
} from '@murmur/testing';
import { startTestGateway } from '@murmur/gateway/testing';
import { createFeedsService } from '@murmur/feeds';
import { createIdentityService } from '@murmur/identity';
import { createPublishingService } from '@murmur/publishing';
import { createWebsubService, type WebsubContext } from '../src/index.js';
import { startCallbackServer, type CallbackServer } from './callbacks.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface Account {
  id: number;
  username: string;
  token: string;
}

export interface Harness {
  /** The gateway (also PUBLIC_URL). */
  url: string;
  hubUrl: string;
  ctx: WebsubContext;
  bus: Bus;
  callbacks: CallbackServer;
  createUser(username: string): Promise<Account>;
  /** POST /websub through the gateway, form-encoded. */
  hub(params: Record<string, string>): Promise<WireResponse>;
  get(path: string): Promise<WireResponse>;
  /** Subscribes `callbackPath` of the stand-in to `topic` and waits until the hub has recorded it. */
  subscribe(topic: string, callbackPath: string, extra?: Record<string, string>): Promise<void>;
  /** metaWeblog.newPost by `who`; the new post's id. */
  newPost(who: Account, title: string, body: string): Promise<string>;
  editPost(who: Account, id: string, title: string, body: string): Promise<void>;
  deletePost(who: Account, id: string): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** The hub's own environment. */
  env?: Record<string, string>;
  /** Every service's environment (WEBSUB_HUB_URL is read by publishing and feeds too). */
  sharedEnv?: Record<string, string>;
  /** The hub's clock (a TestClock moves leases and retries by hand); the others use the wall clock. */
  clock?: Clock;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const busUrl = `memory:websub-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'websub-test', logger });
  const gatewayPort = await freePort();
  const url = `http://127.0.0.1:${gatewayPort}`;
  const services = testServices({
    bus,
    logger,
    env: { ...testServiceEnv({ busUrl, publicUrl: url, adminToken: ADMIN_TOKEN }), ...options.sharedEnv },
  });
  const identity = await services.start(createIdentityService(), { store: 'identity' });
  const publishing = await services.start(createPublishingService({ jobPollIntervalMs: 50 }), {
    store: 'publishing',
    env: { XMLRPC_CALLS_PER_MINUTE: '100000', PUBLIC_GETS_PER_MINUTE: '100000' },
  });
  const feeds = await services.start(createFeedsService({ jobPollIntervalMs: 50 }), { store: 'feeds' });
  let ctx!: WebsubContext;
  const websub = await services.start(
    createWebsubService({ jobPollIntervalMs: 20, onContext: (c) => (ctx = c) }),
    {
      store: 'websub',
      env: {
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        WEBSUB_FEEDS_ORIGIN: url,
        WEBSUB_RETRY_BASE_MS: '1000',
        WEBSUB_LEASE_MIN_SECONDS: '60',
        WEBSUB_LEASE_MAX_SECONDS: '86400',
        WEBSUB_LEASE_DEFAULT_SECONDS: '3600',
        ...options.env,
      },
      ...(options.clock ? { clock: options.clock } : {}),
    },
  );
  const gateway = await startTestGateway({
    port: gatewayPort,
    targets: { identity: identity.url, publishing: publishing.url, feeds: feeds.url, websub: websub.url },
    logger,
  });
  const callbacks = await startCallbackServer();

  const xmlrpc = async (method: string, params: string[]) => {
    const xml = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${params
      .map((p) => `<param><value>${p}</value></param>`)
      .join('')}</params></methodCall>`;
    const res = await sendOverWire(url, {
      method: 'POST',
      url: '/xmlrpc',
      headers: { 'content-type': 'text/xml' },
      payload: xml,
    });
    if (res.statusCode !== 200 || res.body.includes('<fault>')) throw new Error(`${method}: ${res.body}`);
    return res.body;
  };
  const str = (s: string) => `<string>${xmlEscape(s)}</string>`;
  const struct = (title: string, body: string) =>
    `<struct><member><name>title</name><value>${str(title)}</value></member>` +
    `<member><name>description</name><value>${str(body)}</value></member></struct>`;

  const h: Harness = {
    url,
    hubUrl: `${url}/websub`,
    get ctx() {
      return ctx;
    },
    bus,
    callbacks,
    async createUser(username) {
      const res = await sendOverWire(identity.url, {
        method: 'POST',
        url: '/admin/users',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { username, email: `${username}@example.com`, name: username },
      });
      if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
      const created = res.json() as { id: number; token: string };
      // The default site is made from identity's event: wait until its feed answers.
      await eventually(async () => {
        const feed = await sendOverWire(url, { method: 'GET', url: `/sites/${username}/feed.xml` });
        return feed.statusCode === 200 ? true : undefined;
      }, 60_000);
      return { id: created.id, username, token: created.token };
    },
    hub: (params) =>
      sendOverWire(url, {
        method: 'POST',
        url: '/websub',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(params).toString(),
      }),
    get: (path) => sendOverWire(url, { method: 'GET', url: path }),
    async subscribe(topic, callbackPath, extra = {}) {
      const res = await h.hub({
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.callback': `${callbacks.url}${callbackPath}`,
        ...extra,
      });
      if (res.statusCode !== 202) throw new Error(`subscribe: ${res.statusCode} ${res.body}`);
      await eventually(
        async () =>
          (await ctx.store.subscription(topic, `${callbacks.url}${callbackPath}`)) ? true : undefined,
        60_000,
      );
    },
    async newPost(who, title, body) {
      const xml = await xmlrpc('metaWeblog.newPost', [
        str('0'),
        str(who.username),
        str(who.token),
        struct(title, body),
        '<boolean>1</boolean>',
      ]);
      const m = /<value>(?:<(?:string|int|i4)>)?(\d+)(?:<\/(?:string|int|i4)>)?<\/value>/.exec(xml);
      if (!m) throw new Error(`no post id in ${xml}`);
      return m[1]!;
    },
    async editPost(who, id, title, body) {
      await xmlrpc('metaWeblog.editPost', [
        str(id),
        str(who.username),
        str(who.token),
        struct(title, body),
        '<boolean>1</boolean>',
      ]);
    },
    async deletePost(who, id) {
      await xmlrpc('blogger.deletePost', [
        str('app'),
        str(id),
        str(who.username),
        str(who.token),
        '<boolean>1</boolean>',
      ]);
    },
    async stop() {
      await callbacks.close();
      await gateway.close();
      await services.stop();
      await bus.close();
    },
  };
  return h;
}

/** Waits (generously: the machine is shared) until `check` yields a value. */
export function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  return eventually(check, timeoutMs, 50);
}
