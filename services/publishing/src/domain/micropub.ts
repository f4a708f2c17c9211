// Micropub onto the post model (docs/api/publishing.md, "Micropub"; docs/adr/0022-micropub-onto-the-post-model.md).
// A request's h-entry becomes the PostChanges an XML-RPC newPost would make (title, body, summary,
// categories, date, status, slug) plus the properties with no field of their own (PostMf2), and goes
// through createPost/editPost/deletePost: the same store, events, pages and feeds as every other post.
// Everything a request says is checked before anything is fetched, uploaded or written.
import { AppError, badRequest, formatOffsetTime, forbidden, parseTimestamp } from '@murmur/core';
import { FETCH_LIMITS, outboundPolicyFromConfig, safeFetch, type OutboundPolicy } from '@murmur/fetch';
import { DuplicateKeyError } from '@murmur/store';
import type { Mf2Photo, PostDoc, PostMf2, SiteDoc } from '../store.js';
import { categoryNames } from './categories.js';
import { looksLikeHtml, textToHtml } from './content.js';
import type { BusHeaders, Caller, PublishingContext } from './context.js';
import { mediaUrl, uploadMedia } from './media.js';
import { announce, schedulePublication } from './post-events.js';
import { permalink, publicPost } from './post-json.js';
import type { PostChanges } from './post-rules.js';
import { createPost, deletePost, editPost, listPosts } from './posts.js';
import { siteUrl } from './site-json.js';
import { ensureDefaultSite, siteAtUrl } from './sites.js';

export type Mf2Properties = Record<string, unknown[]>;

/** A file of a multipart request, in the property its part named (`photo`, `video`, `audio`). */
export interface MicropubFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface MicropubCreate {
  /** `entry` for h-entry. */
  type: string;
  properties: Mf2Properties;
  /** `mp-*` commands: `mp-slug`, `mp-syndicate-to`. */
  commands: Mf2Properties;
  files: MicropubFile[];
}

/** The properties Murmur keeps (docs/adr/0022): every other one is ignored, as the Recommendation says. */
export const KEPT_PROPERTIES = [
  'name',
  'content',
  'summary',
  'category',
  'published',
  'post-status',
  'photo',
  'video',
  'audio',
  'in-reply-to',
  'like-of',
  'repost-of',
  'bookmark-of',
  'location',
  'checkin',
  'syndication',
] as const;

export const POST_TYPES = [
  { type: 'note', name: 'Note' },
  { type: 'article', name: 'Article' },
  { type: 'photo', name: 'Photo' },
  { type: 'video', name: 'Video' },
  { type: 'audio', name: 'Audio' },
  { type: 'reply', name: 'Reply' },
  { type: 'like', name: 'Like' },
  { type: 'repost', name: 'Repost' },
  { type: 'bookmark', name: 'Bookmark' },
  { type: 'checkin', name: 'Check-in' },
];

const URL_PROPERTIES = ['in-reply-to', 'like-of', 'repost-of', 'bookmark-of', 'syndication'] as const;
const MEDIA_PROPERTIES = ['photo', 'video', 'audio'] as const;
const MAX_VALUES = 50;
const MAX_URL_LENGTH = 2048;
/** A `location` or `checkin` is kept as sent, up to this much JSON. */
const MAX_PLACE_JSON = 4096;
const DRAFT_PATH = /^drafts\/(\d{1,12})$/;
const POST_PATH = /^\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]{1,80}\.html$/;

export const invalid = (property: string, message: string) => badRequest(`${property}: ${message}`, property);

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// --- reading requests ------------------------------------------------------------------------

/** A form or multipart body (or query) as a create request: `h=entry`, properties, `mp-*`, files. */
export function createFromForm(params: Record<string, unknown>, files: MicropubFile[]): MicropubCreate {
  const properties: Mf2Properties = {};
  const commands: Mf2Properties = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'h' || key === 'access_token' || key === 'action') continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (key.startsWith('mp-')) commands[key] = values;
    else properties[key] = values;
  }
  for (const file of files) (properties[file.field] ??= []).push(file);
  const h = params.h;
  return { type: typeof h === 'string' ? h : 'entry', properties, commands, files };
}

/** A JSON create request: `{type: ["h-entry"], properties: {…}}`. */
export function createFromJson(body: Record<string, unknown>): MicropubCreate {
  const type = body.type;
  if (!Array.isArray(type) || typeof type[0] !== 'string')
    throw invalid('type', 'must be an array such as ["h-entry"]');
  if (!isRecord(body.properties)) throw invalid('properties', 'must be an object of property arrays');
  const properties: Mf2Properties = {};
  const commands: Mf2Properties = {};
  for (const [key, value] of Object.entries(body.properties)) {
    if (!Array.isArray(value)) throw invalid(key, 'must be an array of values');
    if (key === 'access_token') continue;
    if (key.startsWith('mp-')) commands[key] = value;
    else properties[key] = value;
  }
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('mp-')) commands[key] = Array.isArray(value) ? value : [value];
  }
  return { type: type[0].replace(/^h-/, ''), properties, commands, files: [] };
}

// --- checking values -------------------------------------------------------------------------

function checkUrl(property: string, value: unknown): string {
  // An h-cite (a reply's context as an object) stands for its url.
  if (isRecord(value) && isRecord(value.properties)) {
    const url = (value.properties as Record<string, unknown>).url;
    value = Array.isArray(url) ? url[0] : undefined;
  }
  if (typeof value !== 'string') throw invalid(property, 'must be an http(s) URL');
  const text = value.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalid(property, 'must be an http(s) URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || text.length > MAX_URL_LENGTH)
    throw invalid(property, 'must be an http(s) URL');
  return parsed.href;
}

function checkCount(property: string, values: unknown[]): void {
  if (values.length > MAX_VALUES) throw invalid(property, `at most ${MAX_VALUES} values`);
}

function singleString(property: string, values: unknown[]): string {
  const v = values[0];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw invalid(property, 'must be text');
}

/** `content`: text, `{html}` or `{value}`; as the body createPost renders (text kept escaped as text). */
function contentBody(values: unknown[]): string {
  const v = values[0];
  if (typeof v === 'string') return looksLikeHtml(v) ? textToHtml(v) : v;
  if (isRecord(v) && typeof v.html === 'string') return v.html;
  if (isRecord(v) && typeof v.value === 'string')
    return looksLikeHtml(v.value) ? textToHtml(v.value) : v.value;
  throw invalid('content', 'must be text or {"html": …}');
}

function parseDate(values: unknown[]): Date {
  const text = singleString('published', values).trim().replace(' ', 'T');
  const parsed = parseTimestamp(text);
  if (!parsed) throw invalid('published', 'must be a date such as 2026-12-02T10:00:00Z');
  return new Date(parsed.ms);
}

function statusOf(values: unknown[]): 'draft' | 'publish' {
  const status = singleString('post-status', values).trim().toLowerCase();
  if (status === 'draft') return 'draft';
  if (status === 'published') return 'publish';
  throw invalid('post-status', 'must be draft or published');
}

function checkPlace(property: string, values: unknown[]): unknown[] {
  checkCount(property, values);
  for (const v of values) {
    if (typeof v !== 'string' && !isRecord(v)) throw invalid(property, 'must be text or an object');
    if (JSON.stringify(v).length > MAX_PLACE_JSON) throw invalid(property, `at most ${MAX_PLACE_JSON} bytes`);
  }
  return values;
}

/** A photo/video/audio value before it is stored: a URL (with alt for photos) or an uploaded file. */
type MediaValue = { url: string; alt?: string } | { file: MicropubFile };

function checkMedia(property: string, values: unknown[]): MediaValue[] {
  checkCount(property, values);
  return values.map((v): MediaValue => {
    if (isRecord(v) && 'bytes' in v && Buffer.isBuffer(v.bytes))
      return { file: v as unknown as MicropubFile };
    if (isRecord(v) && 'value' in v) {
      const alt = v.alt;
      if (alt !== undefined && typeof alt !== 'string') throw invalid(property, 'alt must be text');
      return { url: checkUrl(property, v.value), ...(alt ? { alt: alt.slice(0, 1000) } : {}) };
    }
    return { url: checkUrl(property, v) };
  });
}

/** What the request's properties ask of the post, checked; media still to be fetched or stored. */
interface Plan {
  changes: PostChanges;
  mf2: Omit<PostMf2, 'photo' | 'video' | 'audio'>;
  media: Partial<Record<(typeof MEDIA_PROPERTIES)[number], MediaValue[]>>;
}

/** Reads and checks every kept property of `props`; absent ones are left out of the plan. */
function planOf(props: Mf2Properties, commands: Mf2Properties): Plan {
  const changes: PostChanges = {};
  const mf2: Plan['mf2'] = {};
  const media: Plan['media'] = {};
  for (const [key, values] of Object.entries(props)) {
    if (values.length === 0) continue;
    switch (key) {
      case 'name':
        changes.title = singleString(key, values);
        break;
      case 'content':
        changes.description = contentBody(values);
        break;
      case 'summary':
        changes.summary = singleString(key, values);
        break;
      case 'category':
        changes.categories = categoryNames(values, 'category');
        break;
      case 'published':
        changes.date = parseDate(values);
        break;
      case 'post-status':
        changes.status = statusOf(values);
        break;
      case 'photo':
      case 'video':
      case 'audio':
        media[key] = checkMedia(key, values);
        break;
      case 'in-reply-to':
      case 'like-of':
      case 'repost-of':
      case 'bookmark-of':
      case 'syndication':
        checkCount(key, values);
        mf2[key] = values.map((v) => checkUrl(key, v));
        break;
      case 'location':
      case 'checkin':
        mf2[key] = checkPlace(key, values);
        break;
      default:
        // Unknown properties are ignored (the Recommendation, 3.3: servers need not store them).
        break;
    }
  }
  const slug = commands['mp-slug'];
  if (slug && slug.length > 0) changes.slug = singleString('mp-slug', slug);
  const targets = commands['mp-syndicate-to'] ?? [];
  if (targets.some((t) => t !== '' && t !== null))
    throw invalid('mp-syndicate-to', 'this server has no syndication targets (q=syndicate-to is empty)');
  return { changes, mf2, media };
}

// --- media -----------------------------------------------------------------------------------

const policies = new WeakMap<PublishingContext, OutboundPolicy>();

function policyOf(ctx: PublishingContext): OutboundPolicy {
  let policy = policies.get(ctx);
  if (!policy) {
    policy = outboundPolicyFromConfig(ctx.config);
    policies.set(ctx, policy);
  }
  return policy;
}

/** newMediaObject's refusals in Micropub's words: a type not allowed is a bad value of the property. */
async function storeMedia(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  property: string,
  upload: { name: string; type: string; bits: Buffer },
): Promise<string> {
  try {
    return (await uploadMedia(ctx, caller, site, upload)).url;
  } catch (err) {
    if (err instanceof AppError && err.status === 413) throw err;
    if (err instanceof AppError && err.status < 500)
      throw invalid(property, err.code === 'not_allowed' ? 'that media type is not allowed' : err.message);
    throw err;
  }
}

/** A media URL given to a post: ours is used as it is; any other is fetched by the safe fetcher and stored. */
async function fetchMedia(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  property: string,
  url: string,
): Promise<string> {
  if (url.startsWith(`${ctx.config.PUBLIC_URL}/media/`)) return url;
  let res;
  try {
    res = await safeFetch(url, {
      ...FETCH_LIMITS.page,
      maxBytes: ctx.config.MEDIA_MAX_BYTES,
      accept: property === 'photo' ? 'image/*' : '*/*',
      allow: policyOf(ctx),
      baseUrl: ctx.config.PUBLIC_URL,
    });
  } catch (err) {
    const reason =
      err instanceof Error && err.name === 'FetchBlockedError'
        ? 'that address is not allowed'
        : 'could not be fetched';
    throw invalid(property, `${url} ${reason}`);
  }
  if (res.status !== 200) throw invalid(property, `${url} answered HTTP ${res.status}`);
  const name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '') || property;
  return storeMedia(ctx, caller, site, property, {
    name,
    type: res.headers['content-type'] ?? 'application/octet-stream',
    bits: res.body,
  });
}

async function resolveMedia(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  media: Plan['media'],
): Promise<Pick<PostMf2, 'photo' | 'video' | 'audio'>> {
  const out: Pick<PostMf2, 'photo' | 'video' | 'audio'> = {};
  for (const property of MEDIA_PROPERTIES) {
    const values = media[property];
    if (!values) continue;
    const stored: Mf2Photo[] = [];
    for (const value of values) {
      const url =
        'file' in value
          ? await storeMedia(ctx, caller, site, property, {
              name: value.file.filename || property,
              type: value.file.contentType,
              bits: value.file.bytes,
            })
          : await fetchMedia(ctx, caller, site, property, value.url);
      stored.push({ value: url, ...('alt' in value && value.alt ? { alt: value.alt } : {}) });
    }
    if (property === 'photo') out.photo = stored;
    else out[property] = stored.map((s) => s.value);
  }
  return out;
}

/** Only the properties that hold something: an empty PostMf2 is none at all. */
function compactMf2(mf2: PostMf2): PostMf2 | undefined {
  const out: PostMf2 = {};
  for (const [key, value] of Object.entries(mf2) as Array<[keyof PostMf2, unknown[] | undefined]>) {
    if (value && value.length > 0) (out as Record<string, unknown[]>)[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// --- URLs ------------------------------------------------------------------------------------

/** A post's URL: its permalink once it has one, else its draft address (known to Micropub only). */
export function postUrl(ctx: PublishingContext, site: SiteDoc, post: PostDoc): string {
  return post.path ? permalink(ctx, site, post) : `${siteUrl(ctx, site)}drafts/${post._id}`;
}

interface Located {
  site: SiteDoc;
  /** The tombstone keys the URL's post may have if it was deleted (posts.ts, tombstoneKey). */
  keys: string[];
  post: PostDoc | null;
}

/** The caller's post at `url`: 400 when it is no post URL of ours, 403 when it is another user's. */
async function locate(ctx: PublishingContext, caller: Caller, raw: unknown): Promise<Located> {
  if (raw === undefined || raw === null || raw === '') throw invalid('url', 'is required');
  const url = checkUrl('url', Array.isArray(raw) ? raw[0] : raw);
  const site = await siteAtUrl(ctx, url);
  if (!site) throw invalid('url', 'is not the URL of a post here');
  if (site.userId !== caller.userId) throw forbidden('url: that post belongs to another user.');
  const base = siteUrl(ctx, site);
  const parsed = new URL(url);
  const path = `${parsed.origin}${parsed.pathname}`.startsWith(base)
    ? `${parsed.origin}${parsed.pathname}`.slice(base.length)
    : '';
  const draft = DRAFT_PATH.exec(path);
  if (draft) {
    const post = await ctx.store.postById(Number(draft[1]));
    const own = post && post.siteId === site._id && post.userId === caller.userId && !post.path ? post : null;
    return { site, keys: [`${site._id}/unpublished/${path}`], post: own };
  }
  if (!POST_PATH.test(path)) throw invalid('url', 'is not the URL of a post here');
  const post = await ctx.store.postByPermalink(site._id, path);
  return {
    site,
    keys: [`${site._id}/${path}`, `${site._id}/unpublished/${path}`],
    post: post && post.userId === caller.userId ? post : null,
  };
}

async function tombstoneOf(ctx: PublishingContext, found: Located) {
  for (const key of found.keys) {
    const tombstone = await ctx.store.deletedPostByKey(key);
    if (tombstone) return tombstone;
  }
  return null;
}

// --- source ----------------------------------------------------------------------------------

/** The post as Micropub shows it (q=source): what it was given, in the Recommendation's JSON form. */
export function sourceOf(ctx: PublishingContext, site: SiteDoc, post: PostDoc): Mf2Properties {
  const props: Mf2Properties = {};
  if (post.title) props.name = [post.title];
  if (post.body.trim() !== '')
    props.content = post.bodyFormat === 'html' ? [{ html: post.body }] : [post.body];
  if (post.summary) props.summary = [post.summary];
  if (post.categories.length > 0) props.category = [...post.categories];
  props.published = [formatOffsetTime(post.date)];
  props['post-status'] = [post.status === 'draft' ? 'draft' : 'published'];
  props.url = [postUrl(ctx, site, post)];
  for (const [key, values] of Object.entries(post.mf2 ?? {})) {
    if (!Array.isArray(values) || values.length === 0) continue;
    props[key] =
      key === 'photo'
        ? (values as Mf2Photo[]).map((p) => (p.alt ? { value: p.value, alt: p.alt } : p.value))
        : [...(values as unknown[])];
  }
  return props;
}

export function pickProperties(props: Mf2Properties, wanted: string[] | undefined): Mf2Properties {
  if (!wanted || wanted.length === 0) return props;
  const out: Mf2Properties = {};
  for (const name of wanted) if (props[name]) out[name] = props[name];
  return out;
}

export async function sourceAt(ctx: PublishingContext, caller: Caller, url: unknown): Promise<Mf2Properties> {
  const found = await locate(ctx, caller, url);
  if (!found.post) throw invalid('url', 'no post of yours is at this URL');
  return sourceOf(ctx, found.site, found.post);
}

export async function recentSources(
  ctx: PublishingContext,
  caller: Caller,
  limit: number,
  headers: BusHeaders,
): Promise<Array<{ type: string[]; properties: Mf2Properties }>> {
  const site = await ensureDefaultSite(ctx, caller, headers);
  const posts = await listPosts(ctx, site, limit, 0);
  return posts.map((post) => ({ type: ['h-entry'], properties: sourceOf(ctx, site, post) }));
}

// --- create, update, delete, undelete ----------------------------------------------------------

/** Creates the post; returns its URL (the 201's Location). `draftOnly`: a token with `draft` but not `create`. */
export async function createFromMicropub(
  ctx: PublishingContext,
  caller: Caller,
  request: MicropubCreate,
  options: { draftOnly: boolean; headers: BusHeaders },
): Promise<string> {
  if (request.type !== 'entry') throw invalid('h', `only h-entry posts are made here, not h-${request.type}`);
  const plan = planOf(request.properties, request.commands);
  if (options.draftOnly) plan.changes.status = 'draft';
  const site = await ensureDefaultSite(ctx, caller, options.headers);
  const media = await resolveMedia(ctx, caller, site, plan.media);
  const mf2 = compactMf2({ ...plan.mf2, ...media });
  const id = await createPost(
    ctx,
    caller,
    site,
    { ...plan.changes, ...(mf2 ? { mf2 } : {}) },
    options.headers,
  );
  const post = await ctx.store.postById(id);
  return postUrl(ctx, site, post!);
}

export interface UpdateRequest {
  url: unknown;
  replace?: unknown;
  add?: unknown;
  delete?: unknown;
}

function propertyArrays(name: string, value: unknown): Mf2Properties {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalid(name, 'must be an object of property arrays');
  for (const [key, values] of Object.entries(value))
    if (!Array.isArray(values)) throw invalid(name, `${key} must be an array of values`);
  return value as Mf2Properties;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b || a.toLowerCase() === b.toLowerCase();
  if (isRecord(a) && typeof a.value === 'string') return sameValue(a.value, b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Applies `replace`, `add` and `delete` (in that order, as the Recommendation lists them) to the post's
 * properties and saves the result through editPost. Returns the post's URL before and after.
 */
export async function updateFromMicropub(
  ctx: PublishingContext,
  caller: Caller,
  request: UpdateRequest,
  headers: BusHeaders,
): Promise<{ before: string; after: string }> {
  const replace = propertyArrays('replace', request.replace);
  const add = propertyArrays('add', request.add);
  let remove: Mf2Properties = {};
  let removeWhole: string[] = [];
  if (Array.isArray(request.delete)) {
    if (!request.delete.every((n) => typeof n === 'string'))
      throw invalid('delete', 'must be a list of property names or an object of property arrays');
    removeWhole = request.delete as string[];
  } else if (request.delete !== undefined) remove = propertyArrays('delete', request.delete);
  if (request.replace === undefined && request.add === undefined && request.delete === undefined)
    throw invalid('action', 'an update needs replace, add or delete');

  const found = await locate(ctx, caller, request.url);
  if (!found.post) throw invalid('url', 'no post of yours is at this URL');
  const { site, post } = found;
  const current = sourceOf(ctx, site, post);
  delete current.url;
  const next: Mf2Properties = { ...current };
  const touched = new Set<string>();
  for (const [key, values] of Object.entries(replace)) {
    next[key] = values;
    touched.add(key);
  }
  for (const [key, values] of Object.entries(add)) {
    next[key] = [...(next[key] ?? []), ...values];
    touched.add(key);
  }
  for (const key of removeWhole) {
    delete next[key];
    touched.add(key);
  }
  for (const [key, values] of Object.entries(remove)) {
    if (next[key]) next[key] = next[key].filter((v) => !values.some((r) => sameValue(v, r)));
    touched.add(key);
  }
  for (const key of ['name', 'content', 'summary', 'published', 'post-status'])
    if (touched.has(key) && (next[key]?.length ?? 0) > 1) throw invalid(key, 'takes one value');
  if (touched.has('url')) throw invalid('url', 'is the post’s address and cannot be changed');

  // Only what was touched is handed on: the rest of the post stays exactly as stored.
  const plan = planOf(Object.fromEntries([...touched].filter((k) => next[k]).map((k) => [k, next[k]!])), {});
  const changes: PostChanges = { ...plan.changes };
  if (touched.has('name') && !next.name?.length) changes.title = '';
  if (touched.has('content') && !next.content?.length) changes.description = '';
  if (touched.has('summary') && !next.summary?.length) changes.summary = '';
  if (touched.has('category') && !next.category?.length) changes.categories = [];
  // Categories: the post's whole list is replaced (its tags included: Micropub has one list).
  if (changes.categories !== undefined) changes.tags = [];
  if (touched.has('published') && !next.published?.length) throw invalid('published', 'cannot be removed');
  if (touched.has('post-status') && !next['post-status']?.length) changes.status = 'publish';

  const mf2Touched = [...touched].some(
    (k) =>
      (URL_PROPERTIES as readonly string[]).includes(k) ||
      k === 'location' ||
      k === 'checkin' ||
      (MEDIA_PROPERTIES as readonly string[]).includes(k),
  );
  if (mf2Touched) {
    const media = await resolveMedia(ctx, caller, site, plan.media);
    const kept: PostMf2 = { ...(post.mf2 ?? {}) };
    for (const key of touched) delete (kept as Record<string, unknown>)[key];
    changes.mf2 = compactMf2({ ...kept, ...plan.mf2, ...media }) ?? {};
  }
  const before = postUrl(ctx, site, post);
  await editPost(ctx, caller, post._id, changes, headers);
  const saved = await ctx.store.postById(post._id);
  return { before, after: saved ? postUrl(ctx, site, saved) : before };
}

export async function deleteFromMicropub(
  ctx: PublishingContext,
  caller: Caller,
  url: unknown,
  headers: BusHeaders,
): Promise<void> {
  const found = await locate(ctx, caller, url);
  if (!found.post) {
    // Deleting what is already deleted changes nothing.
    if (await tombstoneOf(ctx, found)) return;
    throw invalid('url', 'no post of yours is at this URL');
  }
  await deletePost(ctx, caller, found.post._id, headers, { keepForUndelete: true });
}

/** Brings back a post deleted through Micropub, at its URL, announced again if it is public. */
export async function undeleteFromMicropub(
  ctx: PublishingContext,
  caller: Caller,
  url: unknown,
  headers: BusHeaders,
): Promise<void> {
  const found = await locate(ctx, caller, url);
  if (found.post) return; // not deleted: nothing to do
  const tombstone = await tombstoneOf(ctx, found);
  const kept = tombstone?.post;
  if (!tombstone || !kept || kept.userId !== caller.userId)
    throw invalid('url', 'no deleted post of yours that can be restored is at this URL');
  const restored: PostDoc = { ...kept, revision: kept.revision + 1, modifiedAt: ctx.clock.now() };
  delete restored.announcedRevision;
  try {
    await ctx.store.insertPost(restored);
  } catch (err) {
    // A URL that was never public could be given to another post meanwhile.
    if (err instanceof DuplicateKeyError) throw invalid('url', 'another post has this address now');
    throw err;
  }
  await ctx.store.removeDeletedPost(tombstone._id);
  if (restored.status === 'scheduled') await schedulePublication(ctx, restored);
  if (restored.status === 'published')
    await announce(ctx, 'published', publicPost(ctx, found.site, restored), restored, headers);
}

// --- queries ---------------------------------------------------------------------------------

export function configOf(ctx: PublishingContext) {
  return {
    'media-endpoint': `${ctx.config.PUBLIC_URL}/micropub/media`,
    'syndicate-to': [],
    'post-types': POST_TYPES,
    q: ['config', 'source', 'syndicate-to', 'category'],
  };
}

export async function categoriesFor(
  ctx: PublishingContext,
  caller: Caller,
  filter: string | undefined,
  headers: BusHeaders,
): Promise<string[]> {
  const site = await ensureDefaultSite(ctx, caller, headers);
  const all = await ctx.store.allCategoriesOfSite(site._id);
  const names = all.map((c) => c.name);
  if (!filter) return names;
  const lower = filter.toLowerCase();
  return names.filter((name) => name.toLowerCase().includes(lower));
}

/** The newest upload of the user (the media endpoint's q=last), or null. */
export async function lastMediaUrl(ctx: PublishingContext, caller: Caller): Promise<string | null> {
  const doc = await ctx.store.lastMediaOf(caller.userId);
  return doc ? mediaUrl(ctx, doc.key) : null;
}

/** A file sent to the media endpoint, stored as newMediaObject would store it; its URL. */
export async function uploadToMediaEndpoint(
  ctx: PublishingContext,
  caller: Caller,
  file: MicropubFile,
  headers: BusHeaders,
): Promise<string> {
  const site = await ensureDefaultSite(ctx, caller, headers);
  return storeMedia(ctx, caller, site, 'file', {
    name: file.filename || 'file',
    type: file.contentType,
    bits: file.bytes,
  });
}
