// The archive service for tests, with the real identity and publishing services beside it on a
// private memory bus and the real gateway in front: requests go where a client's would.
import { randomUUID } from 'node:crypto';
import { type Bus } from '@murmur/bus';
import { connectBus, openStore, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
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
import { createArchiveService, type ArchiveConfig } from '../src/index.js';
import { assertJsonFeed, V1_1 } from './jsonfeed.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface Account {
  id: number;
  username: string;
  token: string;
  /** The user's default site. */
  siteId: number;
  siteUrl: string;
}

export interface Feed {
  version: string;
  title: string;
  home_page_url?: string;
  feed_url: string;
  next_url?: string;
  items: Item[];
  response: WireResponse;
}

export interface Item {
  id: string;
  url?: string;
  title?: string;
  content_html: string;
  content_text: string;
  date_published: string;
  date_modified?: string;
  tags?: string[];
  image?: string;
}

export interface ImportState {
  id: string;
  status: 'queued' | 'running' | 'complete' | 'failed';
  imported: number;
  skipped: number;
  error: string | null;
}

export interface Harness {
  /** The gateway, or archive itself with `gateway: false`. */
  url: string;
  archive: RunningService<ArchiveConfig>;
  store: Store;
  bus: Bus;
  createUser(username: string): Promise<Account>;
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<WireResponse>;
  /** POST …/import (no checks). */
  upload(who: Account, body: string | Buffer, contentType: string, siteId?: number): Promise<WireResponse>;
  /** Uploads, expects 202, and waits until the import has ended; returns its last state. */
  importFile(who: Account, body: string | Buffer, contentType: string): Promise<ImportState>;
  /** Starts another archive process on the same store, bus and blob store (a second replica). */
  replica(): Promise<RunningService<ArchiveConfig>>;
  /** Polls GET …/import/{id} until complete or failed. */
  waitImport(who: Account, id: string, siteId?: number): Promise<ImportState>;
  /** GET of an archive feed: expects 200 and a valid JSON Feed 1.1. */
  feed(path: string, headers?: Record<string, string>): Promise<Feed>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  gateway?: boolean;
  env?: Record<string, string>;
  /** Blob store of the archive (a named `memory:` one can be shared with a second replica). */
  blobUrl?: string;
  /** The archive's store (default a private `memory:` one); `file:<dir>` for the SQLite engine. */
  storeUrl?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logger = testLogger();
  const useGateway = options.gateway ?? true;
  const busUrl = `memory:archive-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'archive-test', logger });
  const gatewayPort = await freePort();
  const publicUrl = useGateway ? `http://127.0.0.1:${gatewayPort}` : 'http://murmur.test';
  const services = testServices({
    bus,
    logger,
    env: testServiceEnv({ busUrl, publicUrl, adminToken: ADMIN_TOKEN }),
  });
  const identity = await services.start(createIdentityService(), { store: 'identity' });
  const publishing = await services.start(createPublishingService({ jobPollIntervalMs: 100 }), {
    store: 'publishing',
  });
  const archiveDef = () =>
    createArchiveService({ jobPollIntervalMs: 20, ...(options.blobUrl ? { blobUrl: options.blobUrl } : {}) });
  const archiveStore = options.storeUrl
    ? await openStore(options.storeUrl, { service: 'archive' })
    : await services.open('archive');
  const startArchive = () => services.start(archiveDef(), { store: archiveStore, env: options.env });
  const archive = await startArchive();

  const gateway = useGateway
    ? await startTestGateway({
        port: gatewayPort,
        targets: { identity: identity.url, publishing: publishing.url, archive: archive.url },
        logger,
      })
    : undefined;
  const url = useGateway ? publicUrl : archive.url;

  const request: Harness['request'] = (method, path, opts = {}) =>
    sendOverWire(url, {
      method,
      url: path,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body } : {}),
    });

  const harness: Harness = {
    url,
    archive,
    store: archiveStore,
    bus,
    replica: startArchive,
    async createUser(username) {
      const res = await sendOverWire(identity.url, {
        method: 'POST',
        url: '/admin/users',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { username, email: `${username}@example.com` },
      });
      if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
      const created = res.json() as { id: number; token: string };
      // Publishing creates the default site when it hears of the new account.
      const site = await eventually(async () => {
        const sites = await sendOverWire(publishing.url, {
          method: 'GET',
          url: `/admin/sites?username=${username}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        return (sites.json() as { sites?: { id: number; url: string }[] }).sites?.[0];
      });
      return { id: created.id, username, token: created.token, siteId: site.id, siteUrl: site.url };
    },
    request,
    upload(who, body, contentType, siteId = who.siteId) {
      return request('POST', `/imported/archive/${siteId}/import`, {
        token: who.token,
        body,
        headers: { 'content-type': contentType },
      });
    },
    async importFile(who, body, contentType) {
      const res = await harness.upload(who, body, contentType);
      if (res.statusCode !== 202) throw new Error(`import: ${res.statusCode} ${res.body}`);
      return harness.waitImport(who, (res.json() as { id: string }).id);
    },
    async waitImport(who, id, siteId = who.siteId) {
      return eventually(async () => {
        const res = await request('GET', `/imported/archive/${siteId}/import/${id}`, { token: who.token });
        if (res.statusCode !== 200) throw new Error(`import status: ${res.statusCode} ${res.body}`);
        const state = res.json() as ImportState;
        return state.status === 'complete' || state.status === 'failed' ? state : undefined;
      }, 20_000);
    },
    async feed(path, headers = {}) {
      const res = await request('GET', path, { headers });
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
      const body = res.json() as Feed;
      assertJsonFeed(body, V1_1);
      return { ...body, response: res };
    },
    async stop() {
      await gateway?.close();
      await services.stop();
      if (options.storeUrl) await archiveStore.close();
      await bus.close();
    },
  };
  return harness;
}

/** Waits until `check` yields a value (events and jobs run on their own schedule). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const ids = (feed: { items: { id: string }[] }) => feed.items.map((i) => i.id);
