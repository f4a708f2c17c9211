// The microsub service for tests: the platform's fake identity (tokens and scopes), the real feeds
// service and the real reader (open-web follows) on the same private memory bus (or NATS) fed with user, site and post events as identity and
// publishing would send them, and the real gateway in front, so requests go where a client's would.
import { randomUUID } from 'node:crypto';
import { feeds, identity, publishing } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { formatOffsetTime } from '@murmur/core';
import { connectBus, type RunningService } from '@murmur/runtime';
import {
  eventually,
  freePort,
  sendOverWire,
  startFakeIdentity,
  testLogger,
  testServiceEnv,
  testServices,
  TestClock,
  type FakeIdentity,
  type WireResponse,
} from '@murmur/testing';
import { createFeedsService } from '@murmur/feeds';
import { startTestGateway } from '@murmur/gateway/testing';
import { createReaderService } from '@murmur/reader';
import { createMicrosubService, type MicrosubConfig } from '../src/index.js';

/** Where the test clock of microsub stands (the read marker of a first use): ahead of the real clock, which
 * the store's TTL of rate-limit counters follows (docs/platform.md, ratelimit). */
export const T0 = Date.parse('2030-01-01T12:00:00Z');

/** An offset-form time `seconds` after T0 (negative: before). */
export const at = (seconds: number) => formatOffsetTime(new Date(T0 + seconds * 1000));

export interface User {
  id: number;
  username: string;
  name: string;
  /** An app token (every scope). */
  token: string;
}

export interface PostInput {
  id: number;
  userId: number;
  publishedAt: string;
  title?: string;
  contentHtml?: string;
  photos?: string[];
  mentions?: { userId: number; username: string }[];
}

export interface Harness {
  /** The gateway (or microsub itself with `gateway: false`). */
  url: string;
  publicUrl: string;
  microsub: RunningService<MicrosubConfig>;
  bus: Bus;
  clock: TestClock;
  fake: FakeIdentity;
  ann: User;
  bob: User;
  cat: User;
  /** An IndieAuth token of `user` with these scopes. */
  token(user: User, scopes: string[]): string;
  /** GET /microsub with query parameters (Bearer `token` unless it is undefined). */
  get(params: Record<string, string>, token?: string): Promise<WireResponse>;
  /** POST /microsub as a form (`application/x-www-form-urlencoded`); pairs keep repeated names. */
  post(pairs: Array<[string, string]> | Record<string, string>, token?: string): Promise<WireResponse>;
  /** POST /microsub with a JSON body. */
  postJson(body: object, token?: string): Promise<WireResponse>;
  /** Publishes a post as publishing would and waits until feeds shows it in its author's timeline. */
  publish(post: PostInput): Promise<void>;
  /** Deletes a post as publishing would and waits until it is gone from its author's timeline. */
  unpublish(post: PostInput): Promise<void>;
  /** Announces a site of `user` at `url` (a home page ending in `/`). */
  site(user: User, id: number, url: string): Promise<void>;
  /**
   * A second microsub replica on the same store, bus and clock (no gateway in front): GET and form
   * POST to it directly. Stopped with the harness.
   */
  replica(): Promise<Pick<Harness, 'get' | 'post'>>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  gateway?: boolean;
  busUrl?: string;
  env?: Record<string, string>;
}

function postData(p: PostInput): publishing.PublicPost {
  return {
    id: p.id,
    userId: p.userId,
    siteId: p.userId,
    url: `https://site${p.userId}.example/posts/${p.id}`,
    title: p.title ?? '',
    contentHtml: p.contentHtml ?? `<p>post ${p.id}</p>`,
    contentText: `post ${p.id}`,
    publishedAt: p.publishedAt,
    photos: p.photos ?? [],
    mentions: p.mentions ?? [],
    categories: [],
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const busUrl = options.busUrl ?? `memory:microsub-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'microsub-test', logger });
  const useGateway = options.gateway ?? true;
  const gatewayPort = await freePort();
  const publicUrl = `http://127.0.0.1:${gatewayPort}`;
  const users: User[] = [
    { id: 1, username: 'ann', name: 'Ann', token: 'ann-app-token' },
    { id: 2, username: 'bob', name: 'Bob', token: 'bob-app-token' },
    { id: 3, username: 'cat', name: 'Cat', token: 'cat-app-token' },
  ];
  const fake = await startFakeIdentity(bus, {
    users: users.map((u) => ({ id: u.id, username: u.username, name: u.name })),
    tokens: users.map((u) => ({ token: u.token, userId: u.id })),
  });
  const services = testServices({ bus, logger, env: testServiceEnv({ busUrl, publicUrl }) });
  const feedsService = await services.start(createFeedsService(), { store: 'feeds' });
  // The reader follows feeds of the open web; every host name it fetches is this machine.
  await services.start(
    createReaderService({
      schedulerIntervalMs: 0,
      jobPollIntervalMs: 50,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    }),
    { store: 'reader', env: { OUTBOUND_ALLOW_PRIVATE: '1' } },
  );
  const clock = new TestClock(T0);
  const microsubStore = await services.open('microsub');
  const startMicrosub = () =>
    services.start(createMicrosubService(), { store: microsubStore, env: options.env, clock });
  const microsub = await startMicrosub();
  // Feeds and microsub learn users from identity's events.
  for (const u of users) {
    await bus.publish(identity.userCreated, {
      user: {
        id: u.id,
        username: u.username,
        email: `${u.username}@example.com`,
        name: u.name,
        fullName: u.name,
        avatar: `https://img.example/${u.username}.png`,
        bio: '',
        links: [],
        createdAt: new Date(0).toISOString(),
      },
    });
  }
  for (const u of users) {
    await eventually(async () =>
      (await bus.request(feeds.followingList, { userId: u.id }).then(
        () => true,
        () => undefined,
      ))
        ? true
        : undefined,
    );
  }

  const gateway = useGateway
    ? await startTestGateway({
        port: gatewayPort,
        targets: { microsub: microsub.url, feeds: feedsService.url },
        logger,
      })
    : undefined;
  const url = useGateway ? publicUrl : microsub.url;
  const auth = (token?: string): Record<string, string> =>
    token === undefined ? {} : { authorization: `Bearer ${token}` };
  const client = (at: string): Pick<Harness, 'get' | 'post'> => ({
    get(params, token) {
      return sendOverWire(at, {
        method: 'GET',
        url: `/microsub?${new URLSearchParams(params).toString()}`,
        headers: auth(token),
      });
    },
    post(pairs, token) {
      const body = new URLSearchParams(Array.isArray(pairs) ? pairs : Object.entries(pairs)).toString();
      return sendOverWire(at, {
        method: 'POST',
        url: '/microsub',
        headers: { ...auth(token), 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    },
  });

  const shown = async (p: PostInput, present: boolean) =>
    eventually(async () => {
      const page = await bus.request(feeds.timelineGet, { userId: p.userId, kind: 'default', limit: 100 });
      return page.items.some((i) => i.id === String(p.id)) === present ? true : undefined;
    });

  const [ann, bob, cat] = users as [User, User, User];
  return {
    url,
    publicUrl,
    microsub,
    bus,
    clock,
    fake,
    ann,
    bob,
    cat,
    token(user, scopes) {
      return fake.addToken({ userId: user.id, kind: 'indieauth', scopes, clientId: 'https://app.example/' })
        .token;
    },
    ...client(url),
    postJson(body, token) {
      return sendOverWire(url, { method: 'POST', url: '/microsub', headers: auth(token), payload: body });
    },
    async publish(p) {
      await bus.publish(publishing.postPublished, postData(p));
      await shown(p, true);
    },
    async unpublish(p) {
      await bus.publish(publishing.postDeleted, postData(p));
      await shown(p, false);
    },
    async site(user, id, siteUrl) {
      await bus.publish(publishing.siteCreated, {
        site: {
          id,
          userId: user.id,
          username: user.username,
          host: new URL(siteUrl).host,
          url: siteUrl,
          isDefault: true,
          createdAt: new Date(0).toISOString(),
        },
      });
      await eventually(async () =>
        (await bus.request(feeds.followingList, { userId: user.id }).then(() => true)) ? true : undefined,
      );
    },
    async replica() {
      return client((await startMicrosub()).url);
    },
    async stop() {
      await gateway?.close();
      await services.stop();
      await fake.stop();
      await bus.close();
    },
  };
}

/** `_id`s of a timeline response. */
export const idsOf = (res: WireResponse): string[] =>
  (res.json() as { items: { _id: string }[] }).items.map((i) => i._id);
