// A small IndieAuth client web app for the browser test: its client_id page describes it with an
// h-app (name, logo) and a rel=redirect_uri on its own origin; its callback page exchanges the code
// server-side at the token endpoint with the PKCE verifier and shows the `me` it got.
import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { deflateSync } from 'node:zlib';
import { hostname } from 'node:os';

/** The app's logo as a data: URL (the screen's CSP allows https: and data: images): a teal-to-blue square. */
const LOGO = `data:image/png;base64,${gradientPng(64).toString('base64')}`;
export const CLIENT_NAME = 'Murmur Test Reader';

export interface ClientApp {
  clientId: string;
  redirectUri: string;
  /** Whether identity can read the client_id page (a host name) or must not (loopback literal). */
  named: boolean;
  /** A fresh authorization URL with state and a PKCE challenge the app remembers. */
  authorizationUrl(extra?: Record<string, string>): string;
  /** Requests for the client_id page. */
  pageRequests(): number;
  stop(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The app's host: this machine's name when it resolves (identity may then fetch the client_id page,
 * allowed to that address through OUTBOUND_ALLOW_HOSTS), else 127.0.0.1, which IndieAuth never fetches.
 */
export async function clientHost(): Promise<{ host: string; address: string }> {
  const name = hostname();
  if (name && name !== 'localhost' && !name.endsWith('.localhost')) {
    try {
      const { address } = await lookup(name, { family: 4 });
      return { host: name, address };
    } catch {
      /* not resolvable here: fall back to the loopback literal */
    }
  }
  return { host: '127.0.0.1', address: '127.0.0.1' };
}

export async function startClientApp(options: {
  host: string;
  address: string;
  gatewayUrl: string;
  issuer: string;
}): Promise<ClientApp> {
  const verifiers = new Map<string, string>();
  let pageRequests = 0;
  let clientId = '';
  let redirectUri = '';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', clientId || 'http://x');
    const send = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname === '/') {
      pageRequests++;
      return send(
        200,
        `<!doctype html><html><head><title>${CLIENT_NAME}</title><link rel="redirect_uri" href="/callback"></head>` +
          `<body><div class="h-app"><img class="u-logo" src="${LOGO}" alt="">` +
          `<a class="u-url p-name" href="/">${CLIENT_NAME}</a></div></body></html>`,
      );
    }
    if (url.pathname === '/callback') {
      void (async () => {
        const state = url.searchParams.get('state') ?? '';
        const verifier = verifiers.get(state);
        if (!verifier) return send(400, '<p id="error">unknown state</p>');
        verifiers.delete(state);
        if (url.searchParams.get('iss') !== options.issuer) return send(400, '<p id="error">wrong iss</p>');
        const token = await fetch(`${options.gatewayUrl}/indieauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: url.searchParams.get('code') ?? '',
            client_id: clientId,
            redirect_uri: redirectUri,
            code_verifier: verifier,
          }).toString(),
        });
        const grant = (await token.json()) as {
          me?: string;
          scope?: string;
          access_token?: string;
          error?: string;
        };
        if (!token.ok || !grant.me) return send(502, `<p id="error">${escape(grant.error ?? 'no me')}</p>`);
        send(
          200,
          `<!doctype html><html><head><title>Signed in</title></head><body><h1>Signed in</h1>` +
            `<p>You are <span id="me">${escape(grant.me)}</span></p>` +
            `<p>Scope: <span id="scope">${escape(grant.scope ?? '')}</span></p>` +
            `<p>Token received: <span id="token">${grant.access_token ? 'yes' : 'no'}</span></p></body></html>`,
        );
      })().catch(() => send(500, '<p id="error">exchange failed</p>'));
      return;
    }
    send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, options.address, resolve));
  const port = (server.address() as { port: number }).port;
  clientId = `http://${options.host}:${port}/`;
  redirectUri = `http://${options.host}:${port}/callback`;

  return {
    clientId,
    redirectUri,
    named: options.host !== '127.0.0.1',
    authorizationUrl(extra = {}) {
      const state = randomBytes(12).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      verifiers.set(state, verifier);
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        ...extra,
      });
      return `${options.gatewayUrl}/indieauth/auth?${query}`;
    },
    pageRequests: () => pageRequests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A size×size RGB PNG with a diagonal gradient. */
function gradientPng(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      rows.push(Math.round(20 + 30 * t), Math.round(170 - 90 * t), Math.round(160 + 80 * t));
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
