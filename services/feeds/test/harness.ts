// The feeds service for tests, with the real identity service beside it on a private memory bus (or
// NATS), optionally the real publishing service, and the real gateway in front: requests go where a
// client's would. Post events can also be published on the bus directly, as publishing would.
import { randomUUID } from 'node:crypto';
import { feeds, publishing, type EventDef, type EventEnvelope } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { formatOffsetTime, type Clock } from '@murmur/core';
import { type Resolver } from '@murmur/fetch';
import { connectBus, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
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
import { createIdentityService } from '@murmur/identity';
import { createPublishingService } from '@murmur/publishing';
import { createFeedsService, type FeedsConfig } from '../src/index.js';
import type { V1 } from './jsonfeed.js';
import { assertJsonFeed, V1_1 } from './jsonfeed.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface Account {
  id: number;
  username: string;
  token: string;
}

export interface PostInput {
  id: number;
  userId: number;
  siteId?: number;
  title?: string;
  contentHtml?: string;
  contentText?: string;
  publishedAt?: string;
  photos?: string[];
  mentions?: { userId: number; username: string }[];
  url?: string;
}

export interface Harness {
  /** The gateway, or feeds itself with `gateway: false`. */
  url: string;
  feedsUrl: string;
  publicUrl: string;
  feeds: RunningService<FeedsConfig>;
  store: Store;
  bus: Bus;
  createUser(username: string, options?: { name?: string }): Promise<Account>;
  /** Publishes a post event on the bus as publishing would. */
  postEvent(verb: 'published' | 'updated' | 'deleted', post: PostInput): Promise<publishing.PublicPost>;
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<WireResponse>;
  /** GET of a JSON Feed: checks status 200 and validates against the schema of `version`. */
  feed(path: string, version?: typeof V1 | typeof V1_1, headers?: Record<string, string>): Promise<Feed>;
  /** The same with a Bearer token (the bookmark API's feeds). */
  authedFeed(path: string, token: string): Promise<Feed>;
  /** Follow `username` as `who` through the HTTP API (expects 200). */
  follow(who: Account, username: string): Promise<void>;
  /** XML-RPC call to publishing (only with `publishing: true`). */
  xmlrpc(method: string, params: XmlValue[]): Promise<string>;
  /** Records `evt.feeds.follow.created`. */
  followEvents: EventEnvelope<{
    followerId: number;
    followeeId: number;
    followerUsername: string;
    followeeUsername: string;
    createdAt: string;
  }>[];
  stop(): Promise<void>;
}

export interface Feed {
  version: string;
  title: string;
  home_page_url?: string;
  feed_url?: string;
  next_url?: string;
  items: FeedItem[];
  response: WireResponse;
}

export interface FeedItem {
  id: string;
  url?: string;
  title?: string;
  content_html: string;
  content_text?: string;
  summary?: string;
  image?: string;
  date_published?: string;
  authors?: { name?: string; url?: string; avatar?: string }[];
  author?: { name?: string; url?: string; avatar?: string };
  attachments?: { url: string; mime_type: string }[];
  _service?: Record<string, any>;
}

export interface HarnessOptions {
  /** The feeds service's own view of the bus (a test makes its publishes fail); the others get it plain. */
  wrapBus?: (bus: Bus) => Bus;
  gateway?: boolean;
  publishing?: boolean;
  busUrl?: string;
  env?: Record<string, string>;
  lookup?: Resolver;
  /** The feeds service's clock (a TestClock moves it by hand); the others use the wall clock. */
  clock?: Clock;
  /** The service's budget for one article extraction (createFeedsService's option). */
  articleParseTimeoutMs?: number;
}

export type XmlValue = string | number | boolean | { [key: string]: XmlValue } | XmlValue[];

function xmlValue(v: XmlValue): string {
  if (typeof v === 'number') return `<int>${v}</int>`;
  if (typeof v === 'boolean') return `<boolean>${v ? 1 : 0}</boolean>`;
  if (typeof v === 'string') return `<string>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string>`;
  if (Array.isArray(v))
    return `<array><data>${v.map((x) => `<value>${xmlValue(x)}</value>`).join('')}</data></array>`;
  return `<struct>${Object.entries(v)
    .map(([k, x]) => `<member><name>${k}</name><value>${xmlValue(x)}</value></member>`)
    .join('')}</struct>`;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const useGateway = options.gateway ?? true;
  const busUrl = options.busUrl ?? `memory:feeds-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'feeds-test', logger });
  const gatewayPort = await freePort();
  const publicUrl = useGateway ? `http://127.0.0.1:${gatewayPort}` : 'http://murmur.test';
  const services = testServices({
    bus,
    logger,
    env: testServiceEnv({ busUrl, publicUrl, adminToken: ADMIN_TOKEN }),
  });
  const identity = await services.start(createIdentityService(), { store: 'identity' });
  let publishingUrl: string | undefined;
  if (options.publishing) {
    const pub = await services.start(createPublishingService({ jobPollIntervalMs: 100 }), {
      store: 'publishing',
      env: { XMLRPC_CALLS_PER_MINUTE: '100000' },
    });
    publishingUrl = pub.url;
  }
  const feedsStore = await services.open('feeds');
  const feedsService = await services.start(
    createFeedsService({
      jobPollIntervalMs: 50,
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.articleParseTimeoutMs ? { articleParseTimeoutMs: options.articleParseTimeoutMs } : {}),
    }),
    {
      store: feedsStore,
      env: { OUTBOUND_ALLOW_PRIVATE: '1', ...options.env },
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.wrapBus ? { bus: options.wrapBus(bus) } : {}),
    },
  );

  const gateway = useGateway
    ? await startTestGateway({
        port: gatewayPort,
        targets: {
          identity: identity.url,
          feeds: feedsService.url,
          ...(publishingUrl ? { publishing: publishingUrl } : {}),
        },
        logger,
      })
    : undefined;
  const url = useGateway ? publicUrl : feedsService.url;

  const followEvents: Harness['followEvents'] = [];
  const recorder = await bus.subscribe(
    feeds.followCreated,
    { durable: `test-follows-${randomUUID().slice(0, 8)}` },
    async (e) => {
      followEvents.push(e);
    },
  );

  const request: Harness['request'] = (method, path, opts = {}) =>
    sendOverWire(url, {
      method,
      url: path,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });

  const harness: Harness = {
    url,
    feedsUrl: feedsService.url,
    publicUrl,
    feeds: feedsService,
    store: feedsStore,
    bus,
    followEvents,
    async createUser(username, opts = {}) {
      const res = await sendOverWire(identity.url, {
        method: 'POST',
        url: '/admin/users',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { username, email: `${username}@example.com`, ...(opts.name ? { name: opts.name } : {}) },
      });
      if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
      const created = res.json() as { id: number; token: string };
      return { id: created.id, username, token: created.token };
    },
    async postEvent(verb, post) {
      const data: publishing.PublicPost = {
        id: post.id,
        userId: post.userId,
        siteId: post.siteId ?? post.userId,
        url: post.url ?? `https://site${post.userId}.example/posts/${post.id}`,
        title: post.title ?? '',
        contentHtml: post.contentHtml ?? `<p>post ${post.id}</p>`,
        contentText: post.contentText ?? `post ${post.id}`,
        publishedAt: post.publishedAt ?? formatOffsetTime(new Date()),
        photos: post.photos ?? [],
        mentions: post.mentions ?? [],
        categories: [],
      };
      const defs: Record<string, EventDef<publishing.PublicPost>> = {
        published: publishing.postPublished,
        updated: publishing.postUpdated,
        deleted: publishing.postDeleted,
      };
      await bus.publish(defs[verb]!, data);
      return data;
    },
    request,
    async feed(path, version = V1_1, headers = {}) {
      const res = await request('GET', path, { headers });
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
      const body = res.json() as Feed;
      assertJsonFeed(body, version);
      return { ...body, response: res };
    },
    async authedFeed(path, token) {
      return harness.feed(path, V1_1, { authorization: `Bearer ${token}` });
    },
    async follow(who, username) {
      const res = await request('POST', '/users/follow', { token: who.token, body: { username } });
      if (res.statusCode !== 200) throw new Error(`follow ${username}: ${res.statusCode} ${res.body}`);
    },
    async xmlrpc(method, params) {
      if (!publishingUrl) throw new Error('start the harness with publishing: true');
      const xml = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${params
        .map((p) => `<param><value>${xmlValue(p)}</value></param>`)
        .join('')}</params></methodCall>`;
      const res = await sendOverWire(url, {
        method: 'POST',
        url: '/xmlrpc',
        headers: { 'content-type': 'text/xml' },
        payload: xml,
      });
      if (res.statusCode !== 200 || res.body.includes('<fault>')) throw new Error(`${method}: ${res.body}`);
      return res.body;
    },
    async stop() {
      await recorder.unsubscribe();
      await gateway?.close();
      await services.stop();
      await bus.close();
    },
  };
  return harness;
}

/** Waits until `check` yields a value (events and jobs run on their own schedule). */
export { eventually };

/** Waits until the feed at `path` satisfies `test` (events arrive asynchronously). */
export async function feedWhen(
  h: Harness,
  path: string,
  test: (feed: Feed) => boolean,
  version: typeof V1 | typeof V1_1 = V1_1,
): Promise<Feed> {
  let last: Feed | undefined;
  try {
    // Long enough for a parser thread's first start on a busy machine (src/domain/page-tasks.ts).
    return await eventually(async () => {
      last = await h.feed(path, version);
      return test(last) ? last : undefined;
    }, 30_000);
  } catch (err) {
    throw new Error(`${path} never matched; last: ${JSON.stringify(last?.items.map((i) => i.id))}`, {
      cause: err,
    });
  }
}

export const ids = (feed: Feed) => feed.items.map((i) => i.id);
