// Other servers' actors: fetched through the safe fetcher (SSRF guard, limits; docs/security.md), as
// signed GETs of the instance actor (servers in Mastodon's "secure mode" answer nothing else), and
// remembered in `actors`. A handle (`@name@host`) is found through WebFinger first. Documents are read
// as compacted JSON-LD the way Mastodon writes them; nothing is expanded.
import { federation } from '@murmur/contracts';
import { forbidden, notFound } from '@murmur/core';
import { FetchError, type FetchResponse } from '@murmur/fetch';
import { parseJsonBody } from '@murmur/http';
import type { ActorDoc } from '../store/index.js';
import type { FederationContext } from './context.js';
import { INSTANCE_KEY_OWNER } from './keys.js';
import { signCavage } from './signatures.js';
import { firstUrl, idOf, isRecord, textOf } from './json.js';

export const AP_ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
/** Limits of fetching a remote document (an actor, a key, a WebFinger answer). */
export const REMOTE_LIMITS = {
  timeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
};
/** A stored actor older than this is fetched again when it is needed. */
const ACTOR_MAX_AGE_MS = 24 * 3_600_000;
/** A key is fetched again on a failed verification at most this often (a key rotation, not a flood). */
const KEY_REFRESH_MIN_MS = 60_000;

const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);

export class RemoteError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A signed GET of a JSON document (the instance actor signs). */
export async function fetchDocument(
  ctx: FederationContext,
  url: string,
  accept = AP_ACCEPT,
): Promise<unknown> {
  const key = await ctx.keys.signingKey(INSTANCE_KEY_OWNER);
  let res: FetchResponse;
  try {
    res = await ctx.fetcher.fetch(url, {
      ...REMOTE_LIMITS,
      accept,
      sign: ({ method, url: hop }) =>
        signCavage({
          method,
          url: hop,
          keyId: ctx.urls.instanceKeyId,
          privateKey: key.privateKey,
          now: ctx.clock.now(),
        }),
    });
  } catch (err) {
    if (err instanceof FetchError) throw new RemoteError(`${url}: ${err.message}`);
    throw err;
  }
  if (res.status < 200 || res.status >= 300)
    throw new RemoteError(`${url} answered ${res.status}`, res.status);
  try {
    return parseJsonBody(res.body.toString('utf8'));
  } catch {
    throw new RemoteError(`${url} answered no JSON`);
  }
}

/** The stored form of an actor document fetched from `url`; RemoteError when it is no usable actor. */
function actorFields(doc: unknown, url: string, now: Date): Omit<ActorDoc, '_id'> {
  if (!isRecord(doc)) throw new RemoteError(`${url} is no actor`);
  const id = idOf(doc);
  const type = textOf(doc.type);
  if (!id || !type || !ACTOR_TYPES.has(type)) throw new RemoteError(`${url} is no actor`);
  // The document must come from the server it names: an actor cannot be served by another host.
  if (new URL(id).host !== new URL(url).host) throw new RemoteError(`${url} serves an actor of another host`);
  const inbox = idOf(doc.inbox);
  const key = isRecord(doc.publicKey) ? doc.publicKey : undefined;
  const keyId = key ? idOf(key) : undefined;
  const pem = key ? textOf(key.publicKeyPem) : undefined;
  const owner = key ? idOf(key.owner) : undefined;
  if (!inbox || !keyId || !pem || owner !== id) throw new RemoteError(`${url} has no inbox or public key`);
  const endpoints = isRecord(doc.endpoints) ? doc.endpoints : {};
  const sharedInbox = idOf(endpoints.sharedInbox);
  const username = textOf(doc.preferredUsername) ?? '';
  return {
    actorId: id,
    handle: username ? `${username}@${new URL(id).host}`.toLowerCase() : '',
    name: textOf(doc.name) ?? '',
    url: firstUrl(doc.url) ?? id,
    icon: firstUrl(isRecord(doc.icon) ? doc.icon.url : doc.icon) ?? '',
    inbox,
    ...(sharedInbox ? { sharedInbox } : {}),
    keyId,
    publicKeyPem: pem,
    fetchedAt: now,
  };
}

/** Fetches an actor document and remembers it. */
export async function fetchActor(ctx: FederationContext, url: string): Promise<ActorDoc> {
  const doc = await fetchDocument(ctx, url);
  return ctx.store.keepActor(actorFields(doc, url, ctx.clock.now()));
}

/** The actor `actorId`, from the store while fresh, else fetched. */
export async function actorFor(ctx: FederationContext, actorId: string): Promise<ActorDoc> {
  const known = await ctx.store.actorByActorId(actorId);
  if (known && !known.deleted && ctx.clock.nowMs() - known.fetchedAt.getTime() < ACTOR_MAX_AGE_MS)
    return known;
  try {
    return await fetchActor(ctx, actorId);
  } catch (err) {
    // An unreachable server does not make a known actor unknown.
    if (known && !known.deleted && err instanceof RemoteError) return known;
    throw err;
  }
}

/**
 * The actor owning `keyId` and its key: the stored actor with that key, else the key's document
 * (an actor with `publicKey`, or a Key naming its `owner`). `refresh` fetches again (a rotated key).
 */
export async function actorOfKey(
  ctx: FederationContext,
  keyId: string,
  refresh: boolean,
): Promise<ActorDoc | null> {
  const stored = await ctx.store.actorByKeyId(keyId);
  if (stored && !stored.deleted) {
    if (!refresh || ctx.clock.nowMs() - stored.fetchedAt.getTime() < KEY_REFRESH_MIN_MS)
      return refresh ? null : stored;
    return fetchActor(ctx, stored.actorId).catch(() => null);
  }
  if (refresh) return null;
  const url = keyId.split('#')[0]!;
  let doc: unknown;
  try {
    doc = await fetchDocument(ctx, url);
  } catch {
    return null;
  }
  if (isRecord(doc) && !isRecord(doc.publicKey) && idOf(doc.owner)) {
    const owner = idOf(doc.owner)!;
    return fetchActor(ctx, owner).catch(() => null);
  }
  try {
    return await ctx.store.keepActor(actorFields(doc, url, ctx.clock.now()));
  } catch {
    return null;
  }
}

/** WebFinger: the actor URL of `name@host`, asked of `host` over PUBLIC_URL's scheme. */
async function webfinger(ctx: FederationContext, name: string, host: string): Promise<string> {
  const scheme = new URL(ctx.urls.base).protocol;
  const resource = `acct:${name}@${host}`;
  const url = `${scheme}//${host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const doc = await fetchDocument(ctx, url, 'application/jrd+json, application/json');
  const links = isRecord(doc) && Array.isArray(doc.links) ? doc.links : [];
  for (const link of links) {
    if (!isRecord(link) || link.rel !== 'self') continue;
    const type = textOf(link.type) ?? '';
    const href = textOf(link.href);
    if (href && (type.startsWith('application/activity+json') || type.startsWith('application/ld+json')))
      return href;
  }
  throw new RemoteError(`${resource} has no ActivityPub actor`);
}

/** The account a handle or an actor URL names (federation.account.resolve): 404 when none. */
export async function resolveAccount(ctx: FederationContext, target: string): Promise<ActorDoc> {
  if (!ctx.config.FEDERATION_ENABLED) throw forbidden('Federation is turned off on this server.');
  const text = target.trim();
  const handle = federation.HANDLE_PATTERN.exec(text);
  try {
    if (handle) {
      const [, name, host] = handle;
      const known = await ctx.store.actorByHandle(`${name}@${host}`);
      if (known && ctx.clock.nowMs() - known.fetchedAt.getTime() < ACTOR_MAX_AGE_MS) return known;
      const actor = await fetchActor(ctx, await webfinger(ctx, name!, host!.toLowerCase()));
      // The handle people use is the one WebFinger answered for, whatever the actor calls itself.
      if (actor.handle !== `${name}@${host}`.toLowerCase()) {
        return ctx.store.keepActor({ ...actor, handle: `${name}@${host}`.toLowerCase() });
      }
      return actor;
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw notFound('No such account: give @name@host or the URL of an account.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notFound('No such account.');
    const known = await ctx.store.actorByActorId(url.href);
    if (known && !known.deleted) return actorFor(ctx, known.actorId);
    return await fetchActor(ctx, url.href);
  } catch (err) {
    if (err instanceof RemoteError) throw notFound(`No such account: ${err.message}.`);
    throw err;
  }
}

export function accountOf(actor: ActorDoc): federation.RemoteAccount {
  return {
    id: actor._id,
    handle: actor.handle || new URL(actor.actorId).host,
    name: actor.name,
    url: actor.url,
    photo: actor.icon,
    actorId: actor.actorId,
  };
}
