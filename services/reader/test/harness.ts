// A running reader for tests: memory store and bus of its own, the platform's fake identity answering
// token and credential checks and user look-ups on that bus (plus a mailer), the platform's TestClock
// as the process clock, and helpers for
// the requests most tests make. The scheduler is off; tests run jobs by asking for them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from '@jest/globals';
import { mail } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
  send,
  startFakeIdentity,
  TestClock,
  testLogger,
  type FakeIdentity,
  type WireResponse,
} from '@murmur/testing';
import {
  createReaderService,
  type ReaderConfig,
  type ReaderContext,
  type ReaderServiceOptions,
} from '../src/index.js';
import { startFeedServer, type FeedServer } from './feed-server.js';

export const PUBLIC_URL = 'http://murmur.test';
export const READER_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  token: string;
  /** Scopes of an IndieAuth token; undefined → an app token (every scope). */
  scopes?: string[];
}

/**
 * Identity for the reader's tests: the platform's fake identity (tokens, Basic logins, user look-ups)
 * plus the mailer identity runs, whose messages are kept in `mails`.
 */
export class TestIdentity {
  readonly users: TestUser[] = [];
  readonly mails: mail.MailMessage[] = [];
  mailFails = false;

  private constructor(readonly fake: FakeIdentity) {}

  static async start(bus: Bus): Promise<TestIdentity> {
    const identity = new TestIdentity(await startFakeIdentity(bus));
    await bus.handle(mail.mailSend, async (message) => {
      if (identity.mailFails) throw new Error('mailer down');
      identity.mails.push(message);
      return { accepted: true as const };
    });
    return identity;
  }

  /** A user with one token: an app token, or an IndieAuth token with `scopes`. */
  addUser(username: string, scopes?: string[]): TestUser {
    const { id } = this.fake.addUser({ username });
    const { token } = this.fake.addToken({ userId: id, ...(scopes ? { kind: 'indieauth', scopes } : {}) });
    const user: TestUser = {
      id,
      username,
      email: `${username}@example.com`,
      token,
      ...(scopes ? { scopes } : {}),
    };
    this.users.push(user);
    return user;
  }
}

export interface Harness {
  service: RunningService<ReaderConfig>;
  ctx: ReaderContext;
  store: Store;
  bus: Bus;
  identity: TestIdentity;
  /** The process's clock; it stands still until a test moves it. */
  clock: TestClock;
  url: string;
  /** A request as `user` (Bearer), or without credentials for `null`. */
  req(
    user: TestUser | null,
    method: string,
    url: string,
    payload?: string | object,
    headers?: Record<string, string>,
  ): Promise<WireResponse>;
  get(user: TestUser | null, url: string, headers?: Record<string, string>): Promise<WireResponse>;
  /** POST subscriptions.json; throws unless 200 or 302. */
  subscribe(user: TestUser, feedUrl: string): Promise<{ id: number; feed_id: number; [k: string]: unknown }>;
  /** Queues a refresh of the feed and waits until every due job is done. */
  refresh(feedId: number): Promise<void>;
  /** Waits until no job is queued (and due) or running. */
  idle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startReader(
  env: Record<string, string> = {},
  options: ReaderServiceOptions = {},
): Promise<Harness> {
  const logger = testLogger();
  const clock = new TestClock();
  const busUrl = `memory:reader-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'reader', logger });
  // A test may give a `file:` store (to count its fsyncs); the default is a memory one.
  const storeUrl = env.STORE_URL ?? 'memory:';
  const store = await openStore(storeUrl, { service: 'reader' });
  const fakeIdentity = await TestIdentity.start(bus);
  let ctx: ReaderContext | undefined;
  const service = await startService(
    createReaderService({
      schedulerIntervalMs: 0,
      jobPollIntervalMs: 50,
      ...options,
      onContext: (c) => {
        ctx = c;
        options.onContext?.(c);
      },
    }),
    {
      env: {
        STORE_URL: storeUrl,
        BUS_URL: busUrl,
        PUBLIC_URL,
        LOG_LEVEL: 'silent',
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        READER_SUBSCRIBE_LIMIT_PER_MINUTE: '100000',
        READER_IMPORT_LIMIT_PER_HOUR: '100000',
        READER_RECAP_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      store,
      bus,
      logger,
      clock,
      port: 0,
      host: '127.0.0.1',
    },
  );
  const jobs = store.collection('jobs');

  const req: Harness['req'] = (user, method, url, payload, headers = {}) =>
    send(service.url, {
      method,
      url,
      headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  const idle = async (timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = await jobs.countDocuments({
        $or: [{ status: 'running' }, { status: 'queued', runAt: { $lte: clock.now() } }],
      });
      if (pending === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs still pending after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  return {
    service,
    ctx: ctx!,
    store,
    bus,
    identity: fakeIdentity,
    clock,
    url: service.url,
    req,
    get: (user, url, headers) => req(user, 'GET', url, undefined, headers),
    async subscribe(user, feedUrl) {
      const res = await req(user, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feedUrl });
      if (res.statusCode !== 200 && res.statusCode !== 302) {
        throw new Error(`subscribing to ${feedUrl}: ${res.statusCode} ${res.body}`);
      }
      return res.json();
    },
    async refresh(feedId) {
      await ctx!.jobs.enqueue('reader.feed.refresh', { feedId }, { key: `feed:${feedId}` });
      await idle();
    },
    idle,
    async stop() {
      await service.stop();
      await bus.close();
      await store.close();
    },
  };
}

/** `Authorization: Basic` for a login and app token. */
export { basicAuth as basic } from '@murmur/testing';

export interface ReaderWithFeedServer {
  h: Harness;
  feeds: FeedServer;
  /** The first user (id 1): users a file adds in `ready` come after her. */
  ann: TestUser;
}

/**
 * One reader, one feed server and user ann for all the tests of a file: started before them, stopped
 * after them. `ready` receives them (for the file's own variables) and does the file's own setup.
 */
export function useReaderWithFeedServer(
  ready: (started: ReaderWithFeedServer) => void | Promise<void>,
  env: Record<string, string> = {},
): void {
  let h: Harness | undefined;
  let feeds: FeedServer | undefined;
  beforeAll(async () => {
    h = await startReader(env);
    feeds = await startFeedServer();
    await ready({ h, feeds, ann: h.identity.addUser('ann') });
  });
  // A failed start leaves some of these unset: stop only what started, so its error is the one reported.
  afterAll(async () => {
    await h?.stop();
    await feeds?.close();
  });
}
