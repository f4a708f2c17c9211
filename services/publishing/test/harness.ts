// A running publishing service for tests, with the real identity service beside it on a private memory
// bus, and (by default) the real gateway in front of both: requests go where a client's would.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from '@jest/globals';
import { type Bus } from '@murmur/bus';
import { type Clock } from '@murmur/core';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
  eventually,
  freePort,
  sendOverWire,
  testLogger,
  testServiceEnv,
  testServices,
} from '@murmur/testing';
import { startTestGateway } from '@murmur/gateway/testing';
import { createIdentityService } from '@murmur/identity';
import { createPublishingService, type PublishingConfig } from '../src/index.js';
import type { XmlRpcOut } from '../src/xmlrpc/values.js';
import { callXmlRpc, postXml, send, type RpcResponse, type TestResponse } from './http.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** Every collection publishing keeps domain data in: "bad input changes nothing" compares their counts. */
export const DATA_COLLECTIONS = [
  'sites',
  'posts',
  'deletedPosts',
  'pages',
  'categories',
  'media',
  'jobs',
] as const;

export interface Account {
  id: number;
  username: string;
  email: string;
  token: string;
}

export interface Harness {
  /** Where clients connect: the gateway, or publishing itself with `gateway: false`. */
  url: string;
  publishingUrl: string;
  publishing: RunningService<PublishingConfig>;
  /** Publishing's store (shared with the service, so tests can count documents). */
  store: Store;
  bus: Bus;
  createUser(username: string, options?: { email?: string; name?: string }): Promise<Account>;
  /** One XML-RPC call; `ip` sets the client address the gateway reports. */
  call(method: string, params: XmlRpcOut[], options?: { ip?: string }): Promise<RpcResponse>;
  postXml(xml: string | Buffer, headers?: Record<string, string>): Promise<RpcResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  counts(): Promise<Record<string, number>>;
  /** Stops publishing and starts it again on the same store, port and bus (a process restart). */
  restartPublishing(): Promise<void>;
  /** Waits until the user's default site exists (made from identity's user.created event). */
  siteOf(userId: number): Promise<{ _id: number; username: string }>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** Default true: requests go through the gateway. */
  gateway?: boolean;
  /** Publishing's environment on top of the test defaults. */
  env?: Record<string, string>;
  /** A bus URL to use instead of a private memory bus (NATS tests). */
  busUrl?: string;
  /** Publishing's STORE_URL (documents and media); default `memory:`. Use `file:<dir>` to restart. */
  storeUrl?: string;
  jobPollIntervalMs?: number;
  /** Publishing's clock (a TestClock moves its dates, limits and jobs); default the system clock. */
  clock?: Clock;
  /** The bus publishing gets, made from the shared one (a test can make its publishes fail). */
  wrapBus?: (bus: Bus) => Bus;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const useGateway = options.gateway ?? true;
  const busUrl = options.busUrl ?? `memory:publishing-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'publishing-test', logger });
  const gatewayPort = await freePort();
  const publicUrl = useGateway ? `http://127.0.0.1:${gatewayPort}` : 'http://murmur.test';

  const baseEnv = testServiceEnv({ busUrl, publicUrl, adminToken: ADMIN_TOKEN });
  const others = testServices({ bus, logger, env: baseEnv });
  const identity = await others.start(createIdentityService(), { store: 'identity' });

  const storeUrl = options.storeUrl ?? 'memory:';
  const env = { ...baseEnv, STORE_URL: storeUrl, XMLRPC_CALLS_PER_MINUTE: '100000', ...options.env };
  const publishingPort = await freePort();
  let publishingStore = await openStore(storeUrl, { service: 'publishing' });
  const startPublishing = () =>
    startService(createPublishingService({ jobPollIntervalMs: options.jobPollIntervalMs ?? 100 }), {
      env,
      store: publishingStore,
      bus: options.wrapBus ? options.wrapBus(bus) : bus,
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
      port: publishingPort,
      host: '127.0.0.1',
    });
  let publishing = await startPublishing();

  const gateway = useGateway
    ? await startTestGateway({
        port: gatewayPort,
        targets: { identity: identity.url, publishing: publishing.url },
        logger,
      })
    : undefined;
  const url = useGateway ? publicUrl : publishing.url;

  let ipCounter = 0;
  const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

  const harness: Harness = {
    url,
    publishingUrl: publishing.url,
    get publishing() {
      return publishing;
    },
    get store() {
      return publishingStore;
    },
    bus,
    async createUser(username, opts = {}) {
      const email = opts.email ?? `${username}@example.com`;
      const res = await sendOverWire(identity.url, {
        method: 'POST',
        url: '/admin/users',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { username, email, ...(opts.name ? { name: opts.name } : {}) },
      });
      if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
      const created = res.json() as { id: number; token: string };
      return { id: created.id, username, email, token: created.token };
    },
    call: (method, params, opts = {}) =>
      callXmlRpc(url, method, params, { 'x-forwarded-for': opts.ip ?? freshIp() }),
    postXml: (xml, headers = {}) => postXml(url, xml, { 'x-forwarded-for': freshIp(), ...headers }),
    get: (path, headers = {}) => send(url, { path, headers }),
    async counts() {
      const counts: Record<string, number> = {};
      for (const name of DATA_COLLECTIONS)
        counts[name] = await publishingStore.collection(name).countDocuments({});
      return counts;
    },
    async restartPublishing() {
      await publishing.stop();
      await publishingStore.close();
      publishingStore = await openStore(storeUrl, { service: 'publishing' });
      publishing = await startPublishing();
    },
    async siteOf(userId) {
      return eventually(async () => {
        const site = await publishingStore.collection('sites').findOne({ defaultOf: userId });
        return site ? (site as unknown as { _id: number; username: string }) : undefined;
      });
    },
    async stop() {
      await gateway?.close();
      await publishing.stop();
      await others.stop();
      await bus.close();
      await publishingStore.close();
    },
  };
  return harness;
}

export interface HarnessWithBaseline {
  h: Harness;
  ada: Account;
  /** Data counts once ada's default site exists: what "stored nothing" compares with. */
  before: Record<string, number>;
}

/**
 * For a file of calls that must all be refused: one harness and user ada for all its tests, stopped after
 * them. Her default site comes from identity's user.created event, so it is awaited before counting: else
 * its late arrival would look like something a refused call stored. `ready` receives them.
 */
export function useHarnessWithBaseline(ready: (started: HarnessWithBaseline) => void | Promise<void>): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness();
    const ada = await h.createUser('ada');
    await h.siteOf(ada.id);
    await ready({ h, ada, before: await h.counts() });
  });
  afterAll(() => h?.stop());
}

/** A struct member by name from a decoded struct. */
export type Struct = Record<string, any>;
