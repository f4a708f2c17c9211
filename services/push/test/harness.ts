// The push service for tests: on a private memory bus with the platform's fake identity (or the real
// identity, publishing and feeds services for flows), a TestClock, and a local APNs stand-in whose
// certificate the sender trusts through its test-only option.
import { randomUUID } from 'node:crypto';
import { feeds, publishing, webmention, type EventDef } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
  sendOverWire,
  startFakeIdentity,
  TestClock,
  testLogger,
  type FakeIdentity,
  type WireResponse,
} from '@murmur/testing';
import { createPushService, type PushConfig, type PushContext } from '../src/index.js';
import { makeTestKey, startApnsStandIn, type ApnsStandIn, type TestKey } from './apns-stand-in.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEAM_ID = 'TEAM123456';
export const KEY_ID = 'KEY1234567';
export const TOPIC = 'org.murmur.app';

export interface Account {
  id: number;
  username: string;
  token: string;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  /** Separate stand-ins for the two environments (default: one for both). */
  separateSandbox?: boolean;
  /** Logger of the push service (tests that read the logs pass their own). */
  logger?: ReturnType<typeof testLogger>;
  /** Registers an app `default` for both environments (default true). */
  app?: boolean;
  /** The CA of a local Web Push stand-in. */
  webPushCa?: string;
}

export interface Harness {
  url: string;
  push: RunningService<PushConfig>;
  ctx: PushContext;
  store: Store;
  bus: Bus;
  clock: TestClock;
  identity: FakeIdentity;
  apns: ApnsStandIn;
  sandbox: ApnsStandIn;
  key: TestKey;
  user(username: string): Account;
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<WireResponse>;
  admin(method: string, path: string, body?: unknown): Promise<WireResponse>;
  addApp(name: string, body?: Record<string, unknown>): Promise<WireResponse>;
  register(who: Account, token: string, query?: string): Promise<WireResponse>;
  publish<D>(def: EventDef<D>, data: D, id?: string): Promise<string>;
  postEvent(
    post: Partial<publishing.PublicPost> & { id: number; userId: number },
    id?: string,
  ): Promise<string>;
  mentionEvent(
    data: Partial<webmention.VerifiedMention> & { targetUserId: number },
    id?: string,
  ): Promise<string>;
  followEvent(follower: Account, followee: Account, id?: string): Promise<string>;
  /** Runs the job queue until nothing is due (deliveries are jobs). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export function devHex(n: number): string {
  return n.toString(16).padStart(64, 'a');
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = options.logger ?? testLogger();
  const busUrl = `memory:push-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'push-test', logger });
  const identity = await startFakeIdentity(bus);
  const clock = new TestClock(new Date('2030-01-01T08:30:00Z'));
  const key = makeTestKey();
  const apns = await startApnsStandIn({ [KEY_ID]: key.publicKey });
  const sandbox = options.separateSandbox ? await startApnsStandIn({ [KEY_ID]: key.publicKey }) : apns;
  const store = await openStore('memory:', { service: 'push' });
  let ctx: PushContext | undefined;
  const push = await startService(
    createPushService({
      jobPollIntervalMs: 20,
      apnsCa: apns.ca,
      ...(options.webPushCa === undefined ? {} : { webPushCa: options.webPushCa }),
      onContext: (c) => (ctx = c),
    }),
    {
      env: {
        STORE_URL: 'memory:',
        BUS_URL: busUrl,
        MURMUR_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'silent',
        DATA_DIR: '/nonexistent-test-data',
        PUSH_APNS_PRODUCTION_URL: apns.url,
        PUSH_APNS_SANDBOX_URL: sandbox.url,
        ...options.env,
      },
      store,
      bus,
      logger,
      clock,
      port: 0,
      host: '127.0.0.1',
    },
  );
  const users = new Map<string, Account>();
  const request: Harness['request'] = (method, path, opts = {}) =>
    sendOverWire(push.url, {
      method,
      url: path,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  const admin: Harness['admin'] = (method, path, body) =>
    request(method, path, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(body === undefined ? {} : { body }),
    });
  const publish = async <D>(def: EventDef<D>, data: D, id: string = randomUUID()) => {
    await bus.publish(def, data, { id });
    return id;
  };
  const h: Harness = {
    url: push.url,
    push,
    ctx: ctx!,
    store,
    bus,
    clock,
    identity,
    apns,
    sandbox,
    key,
    user(username) {
      let account = users.get(username);
      if (!account) {
        const u = identity.addUser({ username });
        account = { id: u.id, username, token: identity.addToken({ userId: u.id }).token };
        users.set(username, account);
      }
      return account;
    },
    request,
    admin,
    addApp: (name, body = {}) =>
      admin('PUT', `/admin/push/apps/${encodeURIComponent(name)}`, {
        team_id: TEAM_ID,
        key_id: KEY_ID,
        key: key.pem,
        topic: TOPIC,
        ...body,
      }),
    register: (who, token, query = 'push_env=production') =>
      request('POST', `/users/push/register?device_token=${encodeURIComponent(token)}&${query}`, {
        token: who.token,
      }),
    publish,
    postEvent: (post, id) =>
      publish(
        publishing.postPublished,
        {
          siteId: post.userId,
          url: `https://example.test/${post.id}`,
          title: '',
          contentHtml: `<p>${post.contentText ?? ''}</p>`,
          contentText: '',
          publishedAt: '2026-11-21T08:30:00+00:00',
          photos: [],
          mentions: [],
          categories: [],
          ...post,
        },
        id,
      ),
    mentionEvent: (data, id) =>
      publish(
        webmention.mentionVerified,
        {
          id: 1,
          source: 'https://carol.example/reply',
          target: 'https://example.test/1',
          type: 'reply',
          author: { name: 'Carol' },
          contentHtml: '',
          contentText: '',
          published: null,
          received: '2026-11-21T08:30:00+00:00',
          isNew: true,
          ...data,
        },
        id,
      ),
    followEvent: (follower, followee, id) =>
      publish(
        feeds.followCreated,
        {
          followerId: follower.id,
          followerUsername: follower.username,
          followeeId: followee.id,
          followeeUsername: followee.username,
          createdAt: '2026-11-21T08:30:00+00:00',
        },
        id,
      ),
    async settle() {
      const jobs = store.collection('jobs');
      for (let i = 0; i < 500; i++) {
        const busy = await jobs.countDocuments({
          $or: [{ status: 'running' }, { status: 'queued', runAt: { $lte: clock.now() } }],
        });
        if (busy === 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('jobs did not settle');
    },
    async stop() {
      await push.stop();
      await identity.stop();
      await apns.close();
      if (sandbox !== apns) await sandbox.close();
      await bus.close();
      await store.close();
    },
  };
  if (options.app !== false) {
    const res = await h.addApp('default');
    if (res.statusCode !== 201) throw new Error(`adding the app: ${res.statusCode} ${res.body}`);
  }
  return h;
}
