// A fediverse server of another kind, written for the tests from the specifications (ActivityPub,
// WebFinger, draft-cavage HTTP Signatures as Mastodon uses them, RFC 9421) rather than from our code:
// it has its own RSA key, serves its actors and WebFinger, signs what it sends in either form, and
// verifies every signature of what it receives — recording the activities that verified and the
// requests that did not. It listens on 127.0.0.1.
import { createHash, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedActivity {
  inbox: string;
  activity: Record<string, unknown>;
  keyId: string;
}

export interface ForeignServer {
  origin: string;
  /** `127.0.0.1:port`. */
  host: string;
  actorUrl(name: string): string;
  keyId(name: string): string;
  /** Activities whose signature verified, in arrival order. */
  received: ReceivedActivity[];
  /** Requests to an inbox whose signature did not verify (why). */
  refused: string[];
  /** What the inboxes answer (default 202); a function decides per request. */
  inboxStatus: number | ((inbox: string) => number);
  /** Whether actors name a shared inbox (default true). */
  sharedInbox: boolean;
  /** Removes an actor (its URL answers 410 Gone, as Mastodon's do after a deletion). */
  deleteActor(name: string): void;
  /** Documents served at their path (notes of its actors), as ActivityStreams JSON. */
  objects: Map<string, Record<string, unknown>>;
  /** POSTs an activity of `name` to `inbox`, signed as `as` says. Returns the answer's status and body. */
  send(
    inbox: string,
    activity: Record<string, unknown>,
    as?: SendOptions,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export interface SendOptions {
  /** Who signs (default the activity's own actor name `alice`). */
  name?: string;
  scheme?: 'cavage' | 'rfc9421' | 'none';
  /** Date header (cavage) or created time (RFC 9421) of the signature; default now. */
  date?: Date;
  /** A Digest / Content-Digest that is not the body's. */
  wrongDigest?: boolean;
  /** Sign with a key that is not the one the actor publishes. */
  wrongKey?: boolean;
  /** The body sent differs from the body signed. */
  tamperBody?: boolean;
}

const AS = 'https://www.w3.org/ns/activitystreams';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseCavage(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** Verifies a draft-cavage signature of a request to us, fetching the signer's actor for its key. */
async function verifyCavage(req: IncomingMessage, body: Buffer, path: string): Promise<string> {
  const header = req.headers.signature;
  if (typeof header !== 'string') throw new Error('unsigned');
  const params = parseCavage(header);
  const names = (params.headers ?? '').split(' ');
  for (const needed of ['(request-target)', 'host', 'date', 'digest']) {
    if (!names.includes(needed)) throw new Error(`${needed} not signed`);
  }
  const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
  if (req.headers.digest !== digest) throw new Error('digest mismatch');
  const age = Math.abs(Date.now() - Date.parse(String(req.headers.date)));
  if (!(age < 12 * 3_600_000)) throw new Error('stale date');
  const lines = names.map((n) =>
    n === '(request-target)'
      ? `(request-target): ${req.method!.toLowerCase()} ${path}`
      : `${n}: ${String(req.headers[n])}`,
  );
  const actorUrl = params.keyId!.split('#')[0]!;
  const actor = (await (
    await fetch(actorUrl, { headers: { accept: 'application/activity+json' } })
  ).json()) as {
    publicKey: { id: string; publicKeyPem: string };
  };
  if (actor.publicKey.id !== params.keyId) throw new Error('key id not the actor’s');
  const ok = verify(
    'sha256',
    Buffer.from(lines.join('\n')),
    createPublicKey(actor.publicKey.publicKeyPem),
    Buffer.from(params.signature!, 'base64'),
  );
  if (!ok) throw new Error('bad signature');
  return params.keyId!;
}

export async function startForeignServer(): Promise<ForeignServer> {
  const keys = new Map<string, { privateKey: KeyObject; publicKeyPem: string }>();
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const deleted = new Set<string>();
  const keyOf = (name: string) => {
    let key = keys.get(name);
    if (!key) {
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      key = {
        privateKey: pair.privateKey,
        publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string,
      };
      keys.set(name, key);
    }
    return key;
  };
  let origin = '';
  const state = {
    received: [] as ReceivedActivity[],
    refused: [] as string[],
    inboxStatus: 202 as number | ((inbox: string) => number),
    sharedInbox: true,
    objects: new Map<string, Record<string, unknown>>(),
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const json = (status: number, doc: unknown, type = 'application/activity+json') => {
        res.writeHead(status, { 'content-type': type }).end(JSON.stringify(doc));
      };
      if (req.method === 'GET' && url.pathname === '/.well-known/webfinger') {
        const m = /^acct:([^@]+)@(.+)$/.exec(url.searchParams.get('resource') ?? '');
        if (!m || m[2] !== new URL(origin).host || deleted.has(m[1]!))
          return json(404, {}, 'application/jrd+json');
        return json(
          200,
          {
            subject: `acct:${m[1]}@${m[2]}`,
            links: [{ rel: 'self', type: 'application/activity+json', href: `${origin}/users/${m[1]}` }],
          },
          'application/jrd+json',
        );
      }
      const object = req.method === 'GET' ? state.objects.get(url.pathname) : undefined;
      if (object) return json(200, { '@context': AS, ...object });
      const actor = /^\/users\/([a-z0-9_]+)$/.exec(url.pathname);
      if (req.method === 'GET' && actor) {
        const name = actor[1]!;
        if (deleted.has(name)) return json(410, {});
        const id = `${origin}/users/${name}`;
        return json(200, {
          '@context': [AS, 'https://w3id.org/security/v1'],
          id,
          type: 'Person',
          preferredUsername: name,
          name: name[0]!.toUpperCase() + name.slice(1),
          url: `${origin}/@${name}`,
          inbox: `${id}/inbox`,
          outbox: `${id}/outbox`,
          followers: `${id}/followers`,
          ...(state.sharedInbox ? { endpoints: { sharedInbox: `${origin}/inbox` } } : {}),
          icon: { type: 'Image', url: `${origin}/avatars/${name}.png` },
          publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: keyOf(name).publicKeyPem },
        });
      }
      if (
        req.method === 'POST' &&
        (url.pathname === '/inbox' || /^\/users\/[a-z0-9_]+\/inbox$/.test(url.pathname))
      ) {
        const body = await readBody(req);
        const status =
          typeof state.inboxStatus === 'function' ? state.inboxStatus(url.href) : state.inboxStatus;
        try {
          const keyId = await verifyCavage(req, body, url.pathname + url.search);
          if (status >= 200 && status < 300) {
            state.received.push({
              inbox: url.href,
              activity: JSON.parse(body.toString()) as Record<string, unknown>,
              keyId,
            });
          }
        } catch (err) {
          state.refused.push((err as Error).message);
          return res.writeHead(401).end();
        }
        return res.writeHead(status).end();
      }
      res.writeHead(404).end();
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const host = new URL(origin).host;

  async function send(inbox: string, activity: Record<string, unknown>, as: SendOptions = {}) {
    const name = as.name ?? 'alice';
    const keyId = `${origin}/users/${name}#main-key`;
    const privateKey = as.wrongKey ? other.privateKey : keyOf(name).privateKey;
    const signed = Buffer.from(JSON.stringify(activity));
    const sent = as.tamperBody ? Buffer.from(JSON.stringify({ ...activity, tampered: true })) : signed;
    const target = new URL(inbox);
    const date = as.date ?? new Date();
    const headers: Record<string, string> = { 'content-type': 'application/activity+json' };
    if (as.scheme === 'rfc9421') {
      const sum = createHash('sha256')
        .update(as.wrongDigest ? Buffer.from('other') : signed)
        .digest('base64');
      headers['content-digest'] = `sha-256=:${sum}:`;
      const created = Math.floor(date.getTime() / 1000);
      const params = `("@method" "@target-uri" "content-digest");created=${created};keyid="${keyId}";alg="rsa-v1_5-sha256"`;
      const base = [
        `"@method": POST`,
        `"@target-uri": ${target.href}`,
        `"content-digest": ${headers['content-digest']}`,
        `"@signature-params": ${params}`,
      ].join('\n');
      headers['signature-input'] = `sig1=${params}`;
      headers.signature = `sig1=:${sign('sha256', Buffer.from(base), privateKey).toString('base64')}:`;
    } else if (as.scheme !== 'none') {
      headers.date = date.toUTCString();
      headers.digest = `SHA-256=${createHash('sha256')
        .update(as.wrongDigest ? Buffer.from('other') : signed)
        .digest('base64')}`;
      const base = [
        `(request-target): post ${target.pathname}${target.search}`,
        `host: ${target.host}`,
        `date: ${headers.date}`,
        `digest: ${headers.digest}`,
      ].join('\n');
      const signature = sign('sha256', Buffer.from(base), privateKey).toString('base64');
      headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`;
    }
    const res = await fetch(inbox, { method: 'POST', headers, body: sent });
    return { status: res.status, body: await res.text() };
  }

  return {
    origin,
    host,
    actorUrl: (name) => `${origin}/users/${name}`,
    keyId: (name) => `${origin}/users/${name}#main-key`,
    get received() {
      return state.received;
    },
    get refused() {
      return state.refused;
    },
    get inboxStatus() {
      return state.inboxStatus;
    },
    set inboxStatus(value) {
      state.inboxStatus = value;
    },
    get sharedInbox() {
      return state.sharedInbox;
    },
    set sharedInbox(value) {
      state.sharedInbox = value;
    },
    deleteActor: (name) => void deleted.add(name),
    objects: state.objects,
    send,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } as ForeignServer;
}
