// The federation service for tests: the real service on a private memory bus with the platform's fake
// identity, PUBLIC_URL its own loopback address (federation over plain http, as PUBLIC_URL says), and
// a foreign server on 127.0.0.1 that OUTBOUND_ALLOW_HOSTS lets it reach. Posts are announced on the
// bus as publishing would; the service's own events are recorded as any consumer would see them.
import { randomUUID } from 'node:crypto';
import { federation, feeds, publishing, type EventEnvelope } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { formatOffsetTime, type BaseConfig } from '@murmur/core';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import type { Store } from '@murmur/store';
import {
  eventually,
  freePort,
  sendOverWire,
  startFakeIdentity,
  testLogger,
  type WireResponse,
} from '@murmur/testing';
import {
  createFederationService,
  type FederationContext,
  type FederationServiceOptions,
} from '../src/index.js';
import { startForeignServer, type ForeignServer } from './foreign-server.js';

export const ADA = { id: 1, username: 'ada' };
export const BOB = { id: 2, username: 'bob' };

export interface Recorded {
  followerAdded: EventEnvelope<unknown>[];
  followerRemoved: EventEnvelope<unknown>[];
  postReceived: EventEnvelope<federation.RemotePost>[];
  postUpdated: EventEnvelope<federation.RemotePost>[];
  postDeleted: EventEnvelope<federation.RemotePost>[];
  interactionReceived: EventEnvelope<federation.Interaction>[];
  interactionRemoved: EventEnvelope<federation.Interaction>[];
}

export interface Harness {
  url: string;
  /** `127.0.0.1:port`: the host of our handles. */
  host: string;
  service: RunningService<BaseConfig>;
  ctx: FederationContext;
  store: Store;
  bus: Bus;
  foreign: ForeignServer;
  events: Recorded;
  get(path: string, headers?: Record<string, string>): Promise<WireResponse>;
  /** Announces a post of a user as publishing would, and waits until the service has its copy. */
  post(
    verb: 'published' | 'updated' | 'deleted',
    post: {
      id: number;
      userId: number;
      contentHtml?: string;
      contentText?: string;
      title?: string;
      revision: number;
    },
  ): Promise<void>;
  /** Announces feeds' follow edge (a local user following a remote account). */
  followEdge(verb: 'created' | 'deleted', followerId: number, followeeId: number): Promise<void>;
  jobsOf(type: string): Promise<{ status: string; attempts: number; lastError?: string; payload: unknown }[]>;
  /** How many documents a collection of the service holds. */
  count(collection: string): Promise<number>;
  /** Stops the service and starts it again on the same store (a restart of the process). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessOptions extends FederationServiceOptions {
  env?: Record<string, string>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const bus = await connectBus(`memory:federation-test-${randomUUID()}`, {
    service: 'federation-test',
    logger,
  });
  const identity = await startFakeIdentity(bus, { users: [ADA, BOB] });
  const foreign = await startForeignServer();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const store = await openStore('memory:', { service: 'federation' });
  let ctx!: FederationContext;
  const start = () =>
    startService(
      createFederationService({
        jobPollIntervalMs: 20,
        outboxPollIntervalMs: 20,
        ...options,
        onContext: (c) => {
          ctx = c;
          options.onContext?.(c);
        },
      }),
      {
        env: {
          STORE_URL: 'memory:',
          BUS_URL: 'memory:unused',
          PUBLIC_URL: url,
          LOG_LEVEL: 'silent',
          DATA_DIR: '/nonexistent-test-data',
          OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
          FEDERATION_RETRY_BASE_MS: '50',
          ...options.env,
        },
        store,
        bus,
        logger,
        port,
        host: '127.0.0.1',
      },
    );
  let service = await start();

  const events: Recorded = {
    followerAdded: [],
    followerRemoved: [],
    postReceived: [],
    postUpdated: [],
    postDeleted: [],
    interactionReceived: [],
    interactionRemoved: [],
  };
  const group = randomUUID().slice(0, 8);
  const record = <D>(
    def: { subject: string } & Parameters<Bus['subscribe']>[0],
    list: EventEnvelope<D>[],
    name: string,
  ) =>
    bus.subscribe(def, { durable: `test-${name}-${group}` }, async (e) => {
      list.push(e as EventEnvelope<D>);
    });
  const recorders = await Promise.all([
    record(federation.followerAdded, events.followerAdded, 'fa'),
    record(federation.followerRemoved, events.followerRemoved, 'fr'),
    record(federation.postReceived, events.postReceived, 'pr'),
    record(federation.postUpdated, events.postUpdated, 'pu'),
    record(federation.postDeleted, events.postDeleted, 'pd'),
    record(federation.interactionReceived, events.interactionReceived, 'ir'),
    record(federation.interactionRemoved, events.interactionRemoved, 'ix'),
  ]);

  const users = new Map([
    [ADA.id, ADA.username],
    [BOB.id, BOB.username],
  ]);

  return {
    url,
    host: `127.0.0.1:${port}`,
    get service() {
      return service;
    },
    get ctx() {
      return ctx;
    },
    async restart() {
      await service.stop();
      service = await start();
    },
    store,
    bus,
    foreign,
    events,
    get: (path, headers = {}) => sendOverWire(url, { method: 'GET', url: path, headers }),
    async post(verb, post) {
      const defs = {
        published: publishing.postPublished,
        updated: publishing.postUpdated,
        deleted: publishing.postDeleted,
      };
      const username = users.get(post.userId) ?? 'nobody';
      await bus.publish(defs[verb], {
        id: post.id,
        userId: post.userId,
        siteId: post.userId,
        url: `${url}/sites/${username}/2026/11/21/post-${post.id}.html`,
        title: post.title ?? '',
        contentHtml: post.contentHtml ?? `<p>Post ${post.id}</p>`,
        contentText: post.contentText ?? `Post ${post.id}`,
        publishedAt: formatOffsetTime(new Date('2026-11-21T08:30:00Z')),
        photos: [],
        mentions: [],
        categories: [],
        revision: post.revision,
      });
      await eventually(async () => {
        const doc = await store.collection('posts').findOne({ _id: post.id, rev: post.revision });
        return doc ?? undefined;
      });
    },
    async followEdge(verb, followerId, followeeId) {
      const username = users.get(followerId) ?? 'nobody';
      const now = formatOffsetTime(new Date());
      if (verb === 'created') {
        await bus.publish(feeds.followCreated, {
          followerId,
          followerUsername: username,
          followeeId,
          followeeUsername: 'remote',
          createdAt: now,
        });
      } else {
        await bus.publish(feeds.followDeleted, {
          followerId,
          followerUsername: username,
          followeeId,
          followeeUsername: 'remote',
          deletedAt: now,
        });
      }
    },
    async jobsOf(type) {
      return (await store.collection('jobs').find({ type })) as unknown as {
        status: string;
        attempts: number;
        lastError?: string;
        payload: unknown;
      }[];
    },
    count: (collection) => store.collection(collection).countDocuments({}),
    async stop() {
      for (const r of recorders) await r.unsubscribe();
      await service.stop();
      await identity.stop();
      await bus.close();
      await foreign.close();
      await store.close();
    },
  };
}

export const AP = { accept: 'application/activity+json' };
