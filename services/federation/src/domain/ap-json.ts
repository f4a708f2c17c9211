// Presenters: our users and posts as ActivityStreams documents, the way Mastodon reads them
// (docs/api/federation.md, "Documents"): a Person with inbox, outbox, followers, following, a shared
// inbox and its publicKey; public posts as Notes addressed to the Public collection and the author's
// followers, wrapped in Create / Update / Delete.
import { escapeHtml } from '@murmur/http';
import type { PostDoc, UserDoc } from '../store/index.js';
import type { ApDocument, Jrd, Nodeinfo, NodeinfoLinks } from '../shapes.js';
import { PUBLIC_COLLECTION } from './json.js';
import type { Urls } from './urls.js';

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const ACTOR_CONTEXT = [
  AS_CONTEXT,
  SECURITY_CONTEXT,
  {
    manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
    toot: 'http://joinmastodon.org/ns#',
    discoverable: 'toot:discoverable',
  },
];

export type Json = Record<string, unknown>;

/** ISO form without fractions, as ActivityStreams dates are usually written. */
function isoTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function actorJson(urls: Urls, user: UserDoc, publicKeyPem: string): ApDocument {
  const actor = urls.actor(user.username);
  return {
    '@context': ACTOR_CONTEXT,
    id: actor,
    type: 'Person',
    preferredUsername: user.username,
    name: user.name || user.username,
    summary: user.bio ? `<p>${escapeHtml(user.bio)}</p>` : '',
    url: urls.profile(user.username),
    inbox: urls.inbox(user.username),
    outbox: urls.outbox(user.username),
    followers: urls.followers(user.username),
    following: urls.following(user.username),
    endpoints: { sharedInbox: urls.sharedInbox },
    manuallyApprovesFollowers: false,
    discoverable: true,
    ...(user.avatar ? { icon: { type: 'Image', url: user.avatar } } : {}),
    ...(Number.isFinite(Date.parse(user.createdAt))
      ? { published: isoTime(new Date(Date.parse(user.createdAt))) }
      : {}),
    publicKey: { id: urls.keyId(user.username), owner: actor, publicKeyPem },
  };
}

/** The instance actor: signs the fetches made for nobody in particular (as Mastodon's does). */
export function instanceActorJson(urls: Urls, publicKeyPem: string): ApDocument {
  return {
    '@context': ACTOR_CONTEXT,
    id: urls.instanceActor,
    type: 'Application',
    preferredUsername: urls.host,
    name: urls.host,
    url: `${urls.base}/`,
    inbox: urls.sharedInbox,
    outbox: `${urls.instanceActor}/outbox`,
    manuallyApprovesFollowers: true,
    publicKey: { id: urls.instanceKeyId, owner: urls.instanceActor, publicKeyPem },
  };
}

/** A remote account a post mentions (resolved through WebFinger when the post was delivered). */
export interface RemoteMention {
  actorId: string;
  handle: string;
}

function mediaTypeOf(url: string): string {
  const ext = /\.([a-z0-9]{2,5})(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    avif: 'image/avif',
  };
  return (ext && types[ext]) ?? 'image/jpeg';
}

export function noteJson(
  urls: Urls,
  post: PostDoc,
  user: UserDoc,
  remoteMentions: RemoteMention[] = [],
): ApDocument {
  const actor = urls.actor(user.username);
  const mentionedActors = [
    ...post.mentions.map((m) => urls.actor(m.username)),
    ...remoteMentions.map((m) => m.actorId),
  ];
  // A titled post shows its title first: Mastodon shows a Note's content, not its name.
  const content = post.title
    ? `<p><strong>${escapeHtml(post.title)}</strong></p>${post.contentHtml}`
    : post.contentHtml;
  return {
    id: urls.note(post._id),
    type: 'Note',
    attributedTo: actor,
    to: [PUBLIC_COLLECTION],
    cc: [urls.followers(user.username), ...mentionedActors],
    content,
    published: isoTime(post.publishedAt),
    ...(post.editedAt ? { updated: isoTime(post.editedAt) } : {}),
    url: post.url,
    inReplyTo: null,
    sensitive: false,
    attachment: post.photos.map((url) => ({
      type: 'Document',
      mediaType: mediaTypeOf(url),
      url,
      name: null,
    })),
    tag: [
      ...post.mentions.map((m) => ({
        type: 'Mention',
        href: urls.actor(m.username),
        name: `@${m.username}@${urls.host}`,
      })),
      ...remoteMentions.map((m) => ({ type: 'Mention', href: m.actorId, name: `@${m.handle}` })),
    ],
  };
}

export function createJson(urls: Urls, note: ApDocument, user: UserDoc, publishedAt: Date): ApDocument {
  return {
    '@context': AS_CONTEXT,
    id: `${String(note.id)}/activity`,
    type: 'Create',
    actor: urls.actor(user.username),
    published: isoTime(publishedAt),
    to: note.to,
    cc: note.cc,
    object: note,
  };
}

export function updateJson(urls: Urls, note: ApDocument, user: UserDoc, rev: number, at: Date): ApDocument {
  return {
    '@context': AS_CONTEXT,
    id: `${String(note.id)}#updates/${rev}`,
    type: 'Update',
    actor: urls.actor(user.username),
    published: isoTime(at),
    to: note.to,
    cc: note.cc,
    object: note,
  };
}

/** The actor itself, changed (a profile edit): its id names the revision of the user's copy. */
export function updatePersonJson(urls: Urls, person: ApDocument, user: UserDoc, at: Date): ApDocument {
  const actor = urls.actor(user.username);
  const object: Json = { ...person };
  delete object['@context'];
  return {
    '@context': ACTOR_CONTEXT,
    id: `${actor}#updates/${user.rev}`,
    type: 'Update',
    actor,
    published: isoTime(at),
    to: [PUBLIC_COLLECTION],
    cc: [urls.followers(user.username)],
    object,
  };
}

export function deleteJson(urls: Urls, postId: number, user: UserDoc, rev: number): ApDocument {
  const id = urls.note(postId);
  return {
    '@context': AS_CONTEXT,
    id: `${id}#delete/${rev}`,
    type: 'Delete',
    actor: urls.actor(user.username),
    to: [PUBLIC_COLLECTION],
    cc: [urls.followers(user.username)],
    object: { id, type: 'Tombstone' },
  };
}

export function collectionJson(id: string, totalItems: number, first?: string): ApDocument {
  return {
    '@context': AS_CONTEXT,
    id,
    type: 'OrderedCollection',
    totalItems,
    ...(first ? { first } : {}),
  };
}

export function collectionPageJson(
  id: string,
  partOf: string,
  items: Json[],
  next: string | undefined,
  prev: string | undefined,
): ApDocument {
  return {
    '@context': AS_CONTEXT,
    id,
    type: 'OrderedCollectionPage',
    partOf,
    orderedItems: items,
    ...(next ? { next } : {}),
    ...(prev ? { prev } : {}),
  };
}

export function webfingerJson(urls: Urls, user: UserDoc): Jrd {
  return {
    subject: `acct:${user.username}@${urls.host}`,
    aliases: [urls.actor(user.username), urls.profile(user.username)],
    links: [
      { rel: 'self', type: 'application/activity+json', href: urls.actor(user.username) },
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: urls.profile(user.username) },
    ],
  };
}

export const NODEINFO_SCHEMA = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

export function nodeinfoLinksJson(urls: Urls): NodeinfoLinks {
  return { links: [{ rel: NODEINFO_SCHEMA, href: `${urls.base}/nodeinfo/2.1` }] };
}

export function nodeinfoJson(usage: { users: number; localPosts: number }, enabled: boolean): Nodeinfo {
  return {
    version: '2.1',
    software: { name: 'murmur', version: '0.1.0' },
    protocols: enabled ? ['activitypub'] : [],
    services: { inbound: [], outbound: [] },
    openRegistrations: false,
    usage: { users: { total: usage.users }, localPosts: usage.localPosts },
    metadata: {},
  };
}
