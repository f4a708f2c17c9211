// A running identity service for tests: memory store and bus of its own, mail to a local SMTP capture,
// the platform's TestClock (it stands still until a test moves it), and small helpers for the requests most tests make.
import { randomUUID } from 'node:crypto';
import { type Bus } from '@murmur/bus';
import { type Logger } from '@murmur/core';
import { type Resolver } from '@murmur/fetch';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import {
  send,
  startSmtpCapture,
  TestClock,
  testLogger,
  type CapturedMail,
  type SmtpCapture,
  type WireRequest,
  type WireResponse,
} from '@murmur/testing';
import { createIdentityService, type IdentityConfig } from '../src/index.js';

export { eventually } from '@murmur/testing';
export type TestRequest = WireRequest;
export type TestResponse = WireResponse;

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const PUBLIC_URL = 'http://murmur.test';

/** Every collection identity writes, for "nothing changed" and "no raw secret stored" checks. */
export const COLLECTIONS = [
  'users',
  'app_tokens',
  'signin_tokens',
  'apps',
  'web_sessions',
  'indieauth_requests',
  'indieauth_codes',
  'indieauth_tokens',
  'secrets',
  'jobs',
  'counters',
  'ratelimits',
] as const;

export interface Harness {
  service: RunningService<IdentityConfig>;
  store: Store;
  bus: Bus;
  capture: SmtpCapture;
  clock: TestClock;
  /** One request to the running service (over a socket, like app.inject). */
  inject(options: TestRequest): Promise<TestResponse>;
  admin(method: string, url: string, payload?: unknown): Promise<TestResponse>;
  createUser(username: string, email?: string): Promise<{ id: number; token: string }>;
  registerApp(appName: string, redirectUrl: string): Promise<{ id: number }>;
  /** POST /account/signin (JSON) from the given client address. */
  signin(params: Record<string, unknown>, ip?: string): Promise<TestResponse>;
  /** Requests a sign-in email for `email` and returns the mail once it arrives. */
  signinMail(email: string, params?: Record<string, unknown>): Promise<CapturedMail>;
  verify(token: string): Promise<TestResponse>;
  stop(): Promise<void>;
}

/** Limits high enough that tests making many requests do not trip them. */
const RELAXED_LIMITS = {
  SIGNIN_LIMIT_PER_EMAIL_PER_HOUR: '1000',
  SIGNIN_LIMIT_PER_IP_PER_HOUR: '1000',
  ACCOUNT_LIMIT_PER_IP_PER_MINUTE: '1000',
  INDIEAUTH_SCREEN_LIMIT_PER_IP_PER_MINUTE: '1000',
  INDIEAUTH_REDEEM_LIMIT_PER_IP_PER_MINUTE: '1000',
};

export interface HarnessOptions {
  /** Keep the configured default rate limits (for the 429 tests). */
  defaultLimits?: boolean;
  /** Default: silent. */
  logger?: Logger;
  /** Resolver of the service's outbound fetches (IndieAuth client pages on made-up hosts). */
  resolve?: Resolver;
  /** The service's budget for parsing one client page (createIdentityService's option). */
  clientPageParseTimeoutMs?: number;
  /** What the service gets as its bus (e.g. one whose publishes fail for a while); tests keep the real one. */
  wrapBus?: (bus: Bus) => Bus;
  /** What the service gets as its store (e.g. one whose writes fail on demand); tests keep the real one. */
  wrapStore?: (store: Store) => Store;
}

export async function startIdentity(
  env: Record<string, string> = {},
  options: HarnessOptions = {},
): Promise<Harness> {
  const capture = await startSmtpCapture();
  const clock = new TestClock();
  const logger = options.logger ?? testLogger();
  const store = await openStore('memory:', { service: 'identity' });
  const busUrl = `memory:identity-test-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'identity', logger });
  const service = await startService(
    createIdentityService({
      ...(options.resolve ? { resolve: options.resolve } : {}),
      ...(options.clientPageParseTimeoutMs
        ? { clientPageParseTimeoutMs: options.clientPageParseTimeoutMs }
        : {}),
    }),
    {
      env: {
        STORE_URL: 'memory:',
        BUS_URL: busUrl,
        MAIL_URL: capture.url,
        MURMUR_ADMIN_TOKEN: ADMIN_TOKEN,
        PUBLIC_URL,
        LOG_LEVEL: 'silent',
        ...(options.defaultLimits ? {} : RELAXED_LIMITS),
        ...env,
      },
      store: options.wrapStore ? options.wrapStore(store) : store,
      bus: options.wrapBus ? options.wrapBus(bus) : bus,
      logger,
      clock,
      port: 0,
      host: '127.0.0.1',
    },
  );

  const inject = (options: TestRequest) => send(service.url, options);
  const admin = (method: string, url: string, payload?: unknown) =>
    inject({
      method,
      url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(payload === undefined ? {} : { payload: payload as TestRequest['payload'] }),
    });
  let ipCounter = 0;
  // Each sign-in gets its own client address unless a test names one, so per-IP limits stay out of the way.
  const freshIp = () => `192.0.2.${(ipCounter++ % 250) + 1}`;
  const signin = (params: Record<string, unknown>, ip = freshIp()) =>
    inject({ method: 'POST', url: '/account/signin', headers: { 'x-forwarded-for': ip }, payload: params });

  const harness: Harness = {
    service,
    store,
    bus,
    capture,
    clock,
    inject,
    admin,
    async createUser(username, email = `${username}@example.com`) {
      const res = await admin('POST', '/admin/users', { username, email });
      if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
      return res.json() as { id: number; token: string };
    },
    async registerApp(appName, redirectUrl) {
      const res = await admin('POST', '/admin/apps', { app_name: appName, redirect_url: redirectUrl });
      if (res.statusCode !== 201) throw new Error(`registering ${appName}: ${res.statusCode} ${res.body}`);
      return res.json() as { id: number };
    },
    signin,
    async signinMail(email, params = {}) {
      const before = capture.messages.length;
      const res = await signin({ email, ...params });
      if (res.statusCode !== 200) throw new Error(`signin: ${res.statusCode} ${res.body}`);
      return capture.waitFor(
        (m) => capture.messages.indexOf(m) >= before && m.to.includes(email.toLowerCase()),
      );
    },
    verify: (token) =>
      inject({
        method: 'POST',
        url: '/account/verify',
        headers: { 'x-forwarded-for': freshIp() },
        payload: { token },
      }),
    async stop() {
      await service.stop();
      await bus.close();
      await store.close();
      await capture.stop();
    },
  };
  return harness;
}

/** A hidden field of one of identity's forms (the first with that name), unescaped. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"\\s*/?>`).exec(html);
  if (!match) throw new Error(`no hidden ${name} field in:\n${html}`);
  return match[1]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

/**
 * What a browser does with an emailed web sign-in link: open it (a confirmation page), then press
 * its button (a POST carrying the page's cookie and form fields). Returns the POST's answer, or the
 * GET's when the link did not lead to a confirmation page.
 */
export async function followSigninLink(
  h: Pick<Harness, 'inject'>,
  pathAndQuery: string,
): Promise<TestResponse> {
  const opened = await h.inject({ method: 'GET', url: pathAndQuery });
  if (opened.statusCode !== 200) return opened;
  const setCookie = opened.headers['set-cookie'];
  const confirm = (Array.isArray(setCookie) ? setCookie : [String(setCookie ?? '')])
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('murmur_signin='));
  const fields = new URLSearchParams({
    token: hiddenField(opened.body, 'token'),
    csrf: hiddenField(opened.body, 'csrf'),
  });
  if (opened.body.includes('name="return_to"'))
    fields.set('return_to', hiddenField(opened.body, 'return_to'));
  return h.inject({
    method: 'POST',
    url: '/account/signin/web',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(confirm ? { cookie: confirm } : {}) },
    payload: fields.toString(),
  });
}

/** The `token` parameter of the link in a sign-in email (works for custom-scheme app links too). */
export function tokenFromMail(mail: CapturedMail): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no token in mail: ${mail.text}`);
  return match[1]!;
}

/** Counts of every identity collection. */
export async function collectionCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of COLLECTIONS) counts[name] = await store.collection(name).countDocuments({});
  return counts;
}

/** Every stored document of identity, serialised: to search for secrets that must never be stored. */
export async function storedText(store: Store): Promise<string> {
  const parts: string[] = [];
  for (const name of COLLECTIONS) parts.push(JSON.stringify(await store.collection(name).find({})));
  return parts.join('\n');
}
