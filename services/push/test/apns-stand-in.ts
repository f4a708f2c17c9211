// A local HTTP/2 TLS server standing in for APNs: a self-signed certificate made for 127.0.0.1 (its
// PEM is the CA the test client trusts), the provider JWT checked with the public half of the test
// key, every request recorded (path, headers, payload) and answered as the test commands.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import http2, { type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { generate } from 'selfsigned';

export interface ApnsRequest {
  path: string;
  token: string;
  headers: Record<string, string>;
  body: string;
  payload: any;
  jwt: { kid: string; alg: string; iss: string; iat: number; raw: string } | null;
  /** Which session (TLS connection) carried it: reuse and reconnection are observable. */
  sessionId: number;
  answer: Answer;
}

export interface Answer {
  status: number;
  reason?: string;
}

export interface ApnsStandIn {
  url: string;
  /** Trusted by the test client (ApnsSender's test-only `ca`). */
  ca: string;
  requests: ApnsRequest[];
  /** Answers for the next requests, in order; 200 once they run out. */
  answers: Answer[];
  /**
   * Answer chosen per request (wins over `answers` when it returns one). A promise holds the answer
   * back until it settles (a request in flight when a worker dies).
   */
  answerFor?: (
    req: Omit<ApnsRequest, 'answer' | 'sessionId'>,
  ) => Answer | undefined | Promise<Answer | undefined>;
  sessions: number;
  /** Sends GOAWAY on every open session. */
  goaway(): void;
  close(): Promise<void>;
}

export interface TestKey {
  pem: string;
  publicKey: KeyObject;
}

export function makeTestKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

let certificate: Promise<{ key: string; cert: string }> | undefined;

/** One self-signed certificate for 127.0.0.1 per test file (generating one costs time). */
export function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= Promise.resolve(
    generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 7, ip: '127.0.0.1' },
            { type: 2, value: 'localhost' },
          ],
        },
      ],
    }),
  ).then((generated) => ({ key: generated.private, cert: generated.cert }));
  return certificate;
}

export async function startApnsStandIn(keys: Record<string, KeyObject>): Promise<ApnsStandIn> {
  const { key, cert } = await selfSignedCertificate();
  const server: Http2Server = http2.createSecureServer({ key, cert, allowHTTP1: false });
  const open = new Set<ServerHttp2Session>();
  let sessionCount = 0;
  const ids = new WeakMap<object, number>();
  server.on('session', (session) => {
    sessionCount += 1;
    ids.set(session, sessionCount);
    open.add(session);
    session.on('close', () => open.delete(session));
  });
  const standIn: ApnsStandIn = {
    url: '',
    ca: cert,
    requests: [],
    answers: [],
    sessions: 0,
    goaway() {
      for (const s of open) s.goaway(http2.constants.NGHTTP2_NO_ERROR);
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = String(headers[':path']);
      const plain: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') plain[k] = v;
      let jwt: ApnsRequest['jwt'] = null;
      const auth = plain.authorization ?? '';
      let answer: Answer | undefined;
      if (auth.startsWith('bearer ')) {
        const raw = auth.slice(7);
        try {
          const header = decodeProtectedHeader(raw);
          const publicKey = keys[String(header.kid)];
          if (!publicKey) throw new Error('unknown kid');
          const { payload, protectedHeader } = await jwtVerify(raw, publicKey, { algorithms: ['ES256'] });
          jwt = {
            kid: String(protectedHeader.kid),
            alg: protectedHeader.alg,
            iss: String(payload.iss),
            iat: Number(payload.iat),
            raw,
          };
        } catch {
          answer = { status: 403, reason: 'InvalidProviderToken' };
        }
      } else {
        answer = { status: 403, reason: 'MissingProviderToken' };
      }
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        answer ??= { status: 400, reason: 'PayloadEmpty' };
      }
      const token = path.startsWith('/3/device/') ? decodeURIComponent(path.slice('/3/device/'.length)) : '';
      const seen = { path, token, headers: plain, body, payload, jwt };
      answer ??= (await standIn.answerFor?.(seen)) ?? standIn.answers.shift() ?? { status: 200 };
      standIn.requests.push({ ...seen, sessionId: ids.get(stream.session!) ?? 0, answer });
      standIn.sessions = sessionCount;
      stream.respond({ ':status': answer.status, 'apns-id': `id-${standIn.requests.length}` });
      stream.end(answer.status === 200 ? undefined : JSON.stringify({ reason: answer.reason ?? '' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
