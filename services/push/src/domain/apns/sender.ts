// The APNs client (docs/api/push.md, "Delivery"): our own thin client on node:http2. One long-lived
// HTTP/2 session per (app, environment), opened on first use and replaced after GOAWAY, an error or a
// close; every notification is one stream on it. TLS trust is Node's own (system store plus
// NODE_EXTRA_CA_CERTS); `ca` exists for tests only.
import http2, { type ClientHttp2Session } from 'node:http2';
import type { Clock, Logger } from '@murmur/core';
import type { PushEnv } from '../../store/index.js';
import { ProviderTokens, type ProviderCredentials } from './provider-token.js';

/** APNs answers within this time or the attempt counts as a connection error (docs/security.md). */
export const APNS_TIMEOUT_MS = 10_000;
/** Notifications expire after a day on Apple's side (`apns-expiration`). */
export const APNS_EXPIRATION_S = 86_400;

export interface ApnsApp extends ProviderCredentials {
  /** The app's name: sessions are kept per (name, environment). */
  name: string;
  topic: string;
}

export interface ApnsAnswer {
  /** HTTP status; 0 when APNs did not answer (connection error, timeout). */
  status: number;
  /** APNs' `reason`, or the connection error's code. */
  reason: string;
  apnsId?: string;
}

export interface ApnsSenderOptions {
  baseUrls: Record<PushEnv, string>;
  clock: Clock;
  logger: Logger;
  /** Tests only: the certificate authority of a local stand-in. Production trusts Node's store. */
  ca?: string | Buffer;
}

const TOKEN_REJECTED = new Set(['ExpiredProviderToken', 'InvalidProviderToken']);

export class ApnsSender {
  readonly tokens: ProviderTokens;
  private readonly sessions = new Map<string, ClientHttp2Session>();
  /** Sessions opened so far (a test observes reuse and reconnection through it). */
  connects = 0;
  private closed = false;

  constructor(private readonly options: ApnsSenderOptions) {
    this.tokens = new ProviderTokens(options.clock);
  }

  /**
   * Sends one notification. A provider token APNs refuses (403 Expired/InvalidProviderToken) is
   * replaced once and the notification sent once more; that second answer is final. A replacement
   * refused within 20 minutes is not replaced again (provider-token.ts): the answer is final at once.
   */
  async send(app: ApnsApp, env: PushEnv, deviceToken: string, payload: string): Promise<ApnsAnswer> {
    let jwt = await this.tokens.get(app);
    let answer = await this.post(app, env, deviceToken, payload, jwt);
    if (answer.status === 403 && TOKEN_REJECTED.has(answer.reason) && this.tokens.rejected(app, jwt)) {
      jwt = await this.tokens.get(app);
      answer = await this.post(app, env, deviceToken, payload, jwt);
    }
    return answer;
  }

  /** Closes the sessions of an app whose credentials changed or went away. */
  forgetApp(name: string): void {
    for (const [key, session] of this.sessions) {
      if (key.startsWith(`${name}\u0000`)) {
        this.sessions.delete(key);
        session.close();
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      open.map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.close(() => resolve())))),
    );
  }

  private session(app: ApnsApp, env: PushEnv): ClientHttp2Session {
    const key = `${app.name}\u0000${env}`;
    const current = this.sessions.get(key);
    if (current && !current.closed && !current.destroyed) return current;
    if (this.closed) throw new Error('the APNs sender is closed');
    const session = http2.connect(this.options.baseUrls[env], {
      minVersion: 'TLSv1.2',
      ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
    });
    this.connects += 1;
    const drop = () => {
      if (this.sessions.get(key) === session) this.sessions.delete(key);
    };
    // GOAWAY: streams in flight finish, new ones go to a new session.
    session.on('goaway', (errorCode) => {
      this.options.logger.info({ app: app.name, env, errorCode }, 'APNs sent GOAWAY; reconnecting');
      drop();
    });
    session.on('error', (err) => {
      this.options.logger.warn({ app: app.name, env, err: (err as Error).message }, 'APNs session failed');
      drop();
    });
    session.on('close', drop);
    this.sessions.set(key, session);
    return session;
  }

  private post(app: ApnsApp, env: PushEnv, deviceToken: string, payload: string, jwt: string) {
    return new Promise<ApnsAnswer>((resolve) => {
      let session: ClientHttp2Session;
      try {
        session = this.session(app, env);
      } catch (err) {
        resolve({ status: 0, reason: (err as Error).message });
        return;
      }
      const body = Buffer.from(payload);
      const expiration = Math.floor(this.options.clock.nowMs() / 1000) + APNS_EXPIRATION_S;
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(deviceToken)}`,
          authorization: `bearer ${jwt}`,
          'apns-topic': app.topic,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          'apns-expiration': String(expiration),
          'content-type': 'application/json',
          'content-length': String(body.length),
        });
      } catch (err) {
        resolve({ status: 0, reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
        return;
      }
      let status = 0;
      let apnsId: string | undefined;
      const chunks: Buffer[] = [];
      let settled = false;
      const settle = (answer: ApnsAnswer) => {
        if (settled) return;
        settled = true;
        resolve(answer);
      };
      stream.setTimeout(APNS_TIMEOUT_MS, () => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        settle({ status: 0, reason: 'Timeout' });
      });
      stream.on('response', (headers) => {
        status = Number(headers[':status'] ?? 0);
        const id = headers['apns-id'];
        if (typeof id === 'string') apnsId = id;
      });
      stream.on('data', (chunk: Buffer) => {
        if (chunks.length < 16) chunks.push(chunk);
      });
      stream.on('end', () => {
        let reason = '';
        const text = Buffer.concat(chunks).toString('utf8');
        if (text) {
          try {
            const parsed = JSON.parse(text) as { reason?: unknown };
            if (typeof parsed.reason === 'string') reason = parsed.reason.slice(0, 100);
          } catch {
            reason = 'UnreadableAnswer';
          }
        }
        settle({ status, reason, ...(apnsId ? { apnsId } : {}) });
      });
      stream.on('error', (err: NodeJS.ErrnoException) =>
        settle({ status: 0, reason: err.code ?? err.message }),
      );
      stream.on('close', () => settle({ status, reason: status ? '' : 'StreamClosed' }));
      stream.end(body);
    });
  }
}
