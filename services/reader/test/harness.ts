// A running reader for tests: memory store and bus of its own, a fake identity answering token and
// credential checks, user look-ups and mail on that bus, a clock the test can move, and helpers for
// the requests most tests make. The scheduler is off; tests run jobs by asking for them.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from '@jest/globals';
import { identity, mail, SCOPES } from '@murmur/contracts';
import {
  connectBus,
  openStore,
  sha256Hex,
  startService,
  type Bus,
  type RunningService,
  type Store,
} from '@murmur/platform';
import { testLogger } from '@murmur/platform/testing';
import {
  createReaderService,
  type ReaderConfig,
  type ReaderContext,
  type ReaderServiceOptions,
} from '../src/index.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { send, type TestResponse } from './http.js';

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

/** Identity's bus answers, from a table of users. Mail sent through it is kept in `mails`. */
export class FakeIdentity {
  readonly users: TestUser[] = [];
  readonly mails: mail.MailMessage[] = [];
  mailFails = false;
  private nextId = 1;

  constructor(private readonly bus: Bus) {}

  async start(): Promise<void> {
    await this.bus.handle(identity.tokenVerify, async ({ token }) => {
      const user = this.users.find((u) => u.token === token);
      if (!user) return { active: false as const };
      return {
        active: true as const,
        userId: user.id,
        username: user.username,
        kind: user.scopes ? ('indieauth' as const) : ('app' as const),
        scopes: user.scopes ?? [...SCOPES],
        clientId: '',
        tokenHash: sha256Hex(token),
      };
    });
    await this.bus.handle(identity.credentialsVerify, async ({ login, token }) => {
      const user = this.users.find(
        (u) => (u.username === login || u.email === login.toLowerCase()) && u.token === token && !u.scopes,
      );
      return user ? { ok: true as const, userId: user.id, username: user.username } : { ok: false as const };
    });
    await this.bus.handle(identity.usersGet, async (query) => {
      const user = this.users.find((u) =>
        'id' in query ? u.id === query.id : u.username === query.username,
      );
      const publicUser = user && {
        id: user.id,
        username: user.username,
        email: user.email,
        name: user.username,
        fullName: '',
        avatar: '',
        bio: '',
        createdAt: new Date(0).toISOString(),
      };
      return { user: publicUser ?? null };
    });
    await this.bus.handle(mail.mailSend, async (message) => {
      if (this.mailFails) throw new Error('mailer down');
      this.mails.push(message);
      return { accepted: true as const };
    });
  }

  addUser(username: string, scopes?: string[]): TestUser {
    const user: TestUser = {
      id: this.nextId++,
      username,
      email: `${username}@example.com`,
      token: randomBytes(32).toString('base64url'),
      ...(scopes ? { scopes } : {}),
    };
    this.users.push(user);
    return user;
  }
}

export class TestClock {
  private offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Harness {
  service: RunningService<ReaderConfig>;
  ctx: ReaderContext;
  store: Store;
  bus: Bus;
  identity: FakeIdentity;
  clock: TestClock;
  url: string;
  /** A request as `user` (Bearer), or without credentials for `null`. */
  req(
    user: TestUser | null,
    method: string,
    url: string,
    payload?: string | object,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  get(user: TestUser | null, url: string, headers?: Record<string, string>): Promise<TestResponse>;
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
  const store = await openStore('memory:', { service: 'reader' });
  const fakeIdentity = new FakeIdentity(bus);
  await fakeIdentity.start();
  let ctx: ReaderContext | undefined;
  const service = await startService(
    createReaderService({
      now: clock.now,
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
        STORE_URL: 'memory:',
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
        $or: [{ status: 'running' }, { status: 'queued', runAt: { $lte: new Date() } }],
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
export function basic(login: string, token: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${token}`).toString('base64')}` };
}

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
