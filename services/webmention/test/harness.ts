// The webmention service for tests: the real service on a private memory bus (or NATS) with the
// platform's fake identity for Bearer tokens, optionally the real gateway in front and the real feeds
// service beside it, and a local source server. Sites and posts are announced on the bus as
// publishing would; the service's own events are recorded as any consumer would see them.
import type { BaseConfig } from '@murmur/core';
import { randomUUID } from 'node:crypto';
import { publishing, webmention, type EventEnvelope } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { formatOffsetTime, loadConfig } from '@murmur/core';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
  eventually,
  freePort,
  sendOverWire,
  startFakeIdentity,
  testLogger,
  type WireResponse,
} from '@murmur/testing';
import { createGateway, gatewayConfigSchema } from '@murmur/gateway';
import { createFeedsService } from '@murmur/feeds';
import {
  createWebmentionService,
  type WebmentionConfig,
  type WebmentionServiceOptions,
} from '../src/index.js';
import { startSourceServer, type SourceServer } from './sources.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
/** Host names the source server answers for (resolved to 127.0.0.1, allowed by OUTBOUND_ALLOW_HOSTS). */
export const SOURCE_HOSTS = [
  'carol.example',
  'dave.example',
  'erin.example',
  'spam.example',
  'slow.example',
  'ada.example',
  'bob.example',
  'localhost',
];

export interface Harness {
  /** The gateway, or the service itself with `gateway: false`. */
  url: string;
  publicUrl: string;
  service: RunningService<WebmentionConfig>;
  store: Store;
  bus: Bus;
  sources: SourceServer;
  verified: EventEnvelope<webmention.VerifiedMention>[];
  deleted: EventEnvelope<{ id: number; source: string; target: string; targetUserId: number | null }>[];
  /** Announces a site as publishing would and waits until the service knows it. */
  addSite(site: { id: number; userId: number; username: string; host: string; url: string }): Promise<void>;
  /**
   * A site publishing has but never announced to this service (one created before the service was
   * deployed): only publishing's `publishing.site.at` answer knows it.
   */
  addUnannouncedSite(site: { id: number; userId: number; username: string; host: string; url: string }): void;
  /** Announces a post as publishing would (no wait). */
  postEvent(
    verb: 'published' | 'updated' | 'deleted',
    post: { id: number; userId: number; url: string; contentHtml: string },
  ): Promise<void>;
  /** POST /webmention as a form, as senders do. */
  send(
    source: string,
    target: string,
    extra?: { headers?: Record<string, string>; ip?: string },
  ): Promise<WireResponse>;
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<WireResponse>;
  /** The stored record of a pair (status, visibility), as GET /webmention/mine shows it. */
  statusOf(source: string, target: string, token?: string): Promise<MineItem | undefined>;
  /** Waits until the pair's status is one of `statuses`. */
  waitForStatus(source: string, target: string, statuses: string[], timeoutMs?: number): Promise<MineItem>;
  jobsOf(type: string): Promise<{ status: string; attempts: number; key?: string }[]>;
  tokens: { ada: string; bob: string };
  stop(): Promise<void>;
}

export interface MineItem {
  id: number | null;
  source: string;
  target: string;
  status: string;
  visible: boolean;
  type?: string;
  last_error?: string;
}

export interface HarnessOptions extends WebmentionServiceOptions {
  gateway?: boolean;
  feeds?: boolean;
  busUrl?: string;
  env?: Record<string, string>;
}

export const ADA = { id: 1, username: 'ada' };
export const BOB = { id: 2, username: 'bob' };

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const useGateway = options.gateway ?? false;
  const busUrl = options.busUrl ?? `memory:webmention-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'webmention-test', logger });
  const sources = await startSourceServer();
  const gatewayPort = await freePort();
  const publicUrl = useGateway ? `http://127.0.0.1:${gatewayPort}` : 'http://murmur.test';
  const identity = await startFakeIdentity(bus, {
    users: [
      { id: ADA.id, username: ADA.username },
      { id: BOB.id, username: BOB.username },
    ],
    tokens: [
      { token: 'ada-app-token', userId: ADA.id },
      { token: 'bob-app-token', userId: BOB.id },
    ],
  });
  const baseEnv = {
    STORE_URL: 'memory:',
    BUS_URL: busUrl,
    MURMUR_ADMIN_TOKEN: ADMIN_TOKEN,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data',
  };
  const lookup = async (host: string) => {
    if (host.endsWith('.example') || host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  const stores: Store[] = [];
  const store = await openStore('memory:', { service: 'webmention' });
  stores.push(store);
  const running: RunningService<BaseConfig>[] = [];
  const service = await startService(
    createWebmentionService({
      jobPollIntervalMs: 20,
      jobBackoffBaseMs: 20,
      outboxPollIntervalMs: 20,
      lookup,
      ...options,
    }),
    {
      env: { ...baseEnv, OUTBOUND_ALLOW_HOSTS: SOURCE_HOSTS.join(','), ...options.env },
      store,
      bus,
      logger,
      port: 0,
      host: '127.0.0.1',
    },
  );
  running.push(service);

  let feedsUrl: string | undefined;
  if (options.feeds) {
    const feedsStore = await openStore('memory:', { service: 'feeds' });
    stores.push(feedsStore);
    const feeds = await startService(createFeedsService({ jobPollIntervalMs: 50 }), {
      env: baseEnv,
      store: feedsStore,
      bus,
      logger,
      port: 0,
      host: '127.0.0.1',
    });
    running.push(feeds);
    feedsUrl = feeds.url;
  }

  let gateway: Awaited<ReturnType<typeof createGateway>> | undefined;
  if (useGateway) {
    const config = loadConfig(gatewayConfigSchema, {
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_URL: publicUrl,
    });
    gateway = await createGateway({
      config,
      targets: { webmention: service.url, ...(feedsUrl ? { feeds: feedsUrl } : {}) },
      logger,
    });
    await gateway.listen({ port: gatewayPort, host: '127.0.0.1' });
  }
  const url = useGateway ? publicUrl : service.url;

  // Publishing's `publishing.site.at`, answered from the sites this harness made (announced or not).
  const publishingSites: publishing.Site[] = [];
  const siteAnswer = await bus.handle(publishing.siteAt, async ({ url: target }) => {
    const parsed = new URL(target);
    const site =
      publishingSites.find((s) => s.host === parsed.hostname && !s.url.startsWith(publicUrl)) ??
      publishingSites.find((s) => target.startsWith(s.url));
    return { site: site ?? null };
  });

  const verified: Harness['verified'] = [];
  const deleted: Harness['deleted'] = [];
  const group = randomUUID().slice(0, 8);
  const recorders = [
    await bus.subscribe(webmention.mentionVerified, { durable: `test-verified-${group}` }, async (e) => {
      verified.push(e);
    }),
    await bus.subscribe(webmention.mentionDeleted, { durable: `test-deleted-${group}` }, async (e) => {
      deleted.push(e);
    }),
  ];

  const request: Harness['request'] = (method, path, opts = {}) =>
    sendOverWire(url, {
      method,
      url: path,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });

  const statusOf: Harness['statusOf'] = async (source, target, token) => {
    for (const t of token ? [token] : ['ada-app-token', 'bob-app-token']) {
      const res = await request('GET', '/webmention/mine', { token: t });
      if (res.statusCode !== 200) throw new Error(`GET /webmention/mine: ${res.statusCode} ${res.body}`);
      const item = (res.json() as { items: MineItem[] }).items.find(
        (i) => i.source === source && i.target === target,
      );
      if (item) return item;
    }
    return undefined;
  };

  const harness: Harness = {
    url,
    publicUrl,
    service,
    store,
    bus,
    sources,
    verified,
    deleted,
    tokens: { ada: 'ada-app-token', bob: 'bob-app-token' },
    addUnannouncedSite(site) {
      publishingSites.push({ ...site, isDefault: true, createdAt: formatOffsetTime(new Date()) });
    },
    async addSite(site) {
      const full = { ...site, isDefault: true, createdAt: formatOffsetTime(new Date()) };
      publishingSites.push(full);
      await bus.publish(publishing.siteCreated, { site: full });
      await eventually(async () => (await store.collection('sites').findOne({ _id: site.id })) ?? undefined);
    },
    async postEvent(verb, post) {
      const defs = {
        published: publishing.postPublished,
        updated: publishing.postUpdated,
        deleted: publishing.postDeleted,
      };
      await bus.publish(defs[verb], {
        id: post.id,
        userId: post.userId,
        siteId: post.userId,
        url: post.url,
        title: '',
        contentHtml: post.contentHtml,
        contentText: '',
        publishedAt: formatOffsetTime(new Date()),
        photos: [],
        mentions: [],
        categories: [],
      });
    },
    send(source, target, extra = {}) {
      return sendOverWire(url, {
        method: 'POST',
        url: '/webmention',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra.headers },
        payload: new URLSearchParams({ source, target }).toString(),
      });
    },
    request,
    statusOf,
    // Long enough for a parser thread's first start on a busy machine (src/domain/parse-tasks.ts).
    async waitForStatus(source, target, statuses, timeoutMs = 30_000) {
      let last: MineItem | undefined;
      try {
        return await eventually(async () => {
          last = await statusOf(source, target);
          return last && statuses.includes(last.status) ? last : undefined;
        }, timeoutMs);
      } catch (err) {
        throw new Error(`status never became ${statuses.join('/')}; last: ${JSON.stringify(last)}`, {
          cause: err,
        });
      }
    },
    async jobsOf(type) {
      return (await store.collection('jobs').find({ type })) as unknown as {
        status: string;
        attempts: number;
      }[];
    },
    async stop() {
      for (const r of [...recorders, siteAnswer]) await r.unsubscribe();
      await gateway?.close();
      for (const s of running.reverse()) await s.stop();
      await identity.stop();
      await bus.close();
      await sources.close();
      for (const s of stores) await s.close();
    },
  };
  return harness;
}

/** Ada's site on its own host, and Bob's under the public URL. */
export async function withSites(h: Harness): Promise<void> {
  await h.addSite({
    id: 1,
    userId: ADA.id,
    username: 'ada',
    host: 'ada.example',
    url: 'https://ada.example/',
  });
  await h.addSite({
    id: 2,
    userId: BOB.id,
    username: 'bob',
    host: new URL(h.publicUrl).host,
    url: `${h.publicUrl}/sites/bob/`,
  });
}

export const ADA_POST = 'https://ada.example/2026/11/21/hello.html';

/** An h-entry page; `props` go inside the h-entry. */
export function hEntry(props: string, extra = ''): string {
  return `<!doctype html><html><head><title>A page</title></head><body>${extra}<article class="h-entry">${props}</article></body></html>`;
}
