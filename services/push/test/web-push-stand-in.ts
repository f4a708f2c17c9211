// A local server standing in for a browser's Web Push service: HTTPS on 127.0.0.1 with the tests'
// self-signed certificate. It checks the VAPID JWT (ES256, signed by the key in `k`, `aud` = its
// origin), decrypts the aes128gcm payload with the subscription's private key and auth secret, as
// the browser would, and answers as the test commands.
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import { importJWK, jwtVerify } from 'jose';
import { selfSignedCertificate } from './apns-stand-in.js';

export interface Browser {
  ecdh: ECDH;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface WebPushMessage {
  path: string;
  headers: Record<string, string | undefined>;
  vapid: { aud: string; sub: string; exp: number; publicKey: string } | null;
  /** The decrypted payload, parsed; null when it could not be decrypted. */
  payload: any;
}

export interface WebPushStandIn {
  origin: string;
  host: string;
  ca: string;
  messages: WebPushMessage[];
  /** Statuses for the next messages to a browser, by its id; 201 once they run out. */
  answers: Record<string, number[]>;
  browser(id: string): Browser;
  close(): Promise<void>;
}

export async function startWebPushStandIn(): Promise<WebPushStandIn> {
  const { key, cert } = await selfSignedCertificate();
  const browsers = new Map<string, Browser>();
  const server = https.createServer({ key, cert });
  const standIn: WebPushStandIn = {
    origin: '',
    host: '',
    ca: cert,
    messages: [],
    answers: {},
    browser(id) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const browser: Browser = {
        ecdh,
        subscription: {
          endpoint: `${standIn.origin}/push/${id}`,
          keys: {
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
        },
      };
      browsers.set(id, browser);
      return browser;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '';
      const id = path.replace('/push/', '');
      const browser = browsers.get(id);
      let vapid: WebPushMessage['vapid'] = null;
      const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
      if (match) {
        try {
          const raw = Buffer.from(match[2]!, 'base64url');
          const jwk = {
            kty: 'EC',
            crv: 'P-256',
            x: raw.subarray(1, 33).toString('base64url'),
            y: raw.subarray(33, 65).toString('base64url'),
          };
          const { payload } = await jwtVerify(match[1]!, await importJWK(jwk, 'ES256'), {
            algorithms: ['ES256'],
            audience: standIn.origin,
          });
          vapid = {
            aud: String(payload.aud),
            sub: String(payload.sub),
            exp: Number(payload.exp),
            publicKey: match[2]!,
          };
        } catch {
          vapid = null;
        }
      }
      let payload: unknown = null;
      if (browser) {
        try {
          const clear = decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: browser.ecdh,
            authSecret: browser.subscription.keys.auth,
          });
          payload = JSON.parse(clear.toString('utf8'));
        } catch {
          payload = null;
        }
      }
      standIn.messages.push({
        path,
        headers: {
          'content-encoding': req.headers['content-encoding'],
          ttl: req.headers.ttl as string | undefined,
        },
        vapid,
        payload,
      });
      const status = !vapid ? 403 : !browser ? 404 : (standIn.answers[id]?.shift() ?? 201);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  standIn.origin = `https://127.0.0.1:${port}`;
  standIn.host = `127.0.0.1:${port}`;
  return standIn;
}
