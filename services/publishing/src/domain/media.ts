// Media uploads (newMediaObject): checked type and size, stored as a blob under an unguessable name, and
// served back from {PUBLIC_URL}/media/{site}/{yyyy}/{random}-{name}.
import { randomBytes } from 'node:crypto';
import type { MediaDoc, SiteDoc } from '../store.js';
import type { Caller, PublishingContext } from './context.js';
import { badParam, mediaTooLarge, mediaTypeNotAllowed } from './errors.js';
import { allowedFamily, contentAgrees } from './sniff.js';

export interface MediaUpload {
  name: string;
  type: string;
  bits: Buffer;
}

export const MAX_MEDIA_NAME_LENGTH = 100;

/** A client's file name reduced to a harmless base name: `../../etc/passwd` → `passwd`. */
export function safeMediaName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  let safe = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-{2,}/g, '-');
  if (safe.length > MAX_MEDIA_NAME_LENGTH) {
    // Keep the extension: it is what most tools look at.
    const dot = safe.lastIndexOf('.');
    const ext = dot > 0 && safe.length - dot <= 10 ? safe.slice(dot) : '';
    safe = safe.slice(0, MAX_MEDIA_NAME_LENGTH - ext.length) + ext;
  }
  return safe === '' ? 'file' : safe;
}

/** `image/PNG; charset=x` → `image/png`. */
export function normaliseMediaType(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase();
}

export function mediaUrl(ctx: PublishingContext, key: string): string {
  return `${ctx.config.PUBLIC_URL}/media/${key}`;
}

export async function uploadMedia(
  ctx: PublishingContext,
  caller: Caller,
  site: SiteDoc,
  upload: MediaUpload,
): Promise<{ url: string; id: string }> {
  if (upload.name.trim() === '') throw badParam('name: is required');
  const type = normaliseMediaType(upload.type);
  const family = allowedFamily(type);
  if (!family) throw mediaTypeNotAllowed();
  if (upload.bits.length > ctx.config.MEDIA_MAX_BYTES) throw mediaTooLarge(ctx.config.MEDIA_MAX_BYTES);
  if (upload.bits.length === 0) throw badParam('bits: the file is empty');
  if (!contentAgrees(upload.bits, type, family)) throw mediaTypeNotAllowed();

  const name = safeMediaName(upload.name);
  const id = randomBytes(12).toString('hex');
  const random = randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
  const now = ctx.clock.now();
  const key = `${site._id}/${now.getUTCFullYear()}/${random}-${name}`;
  await ctx.blobs.put(key, upload.bits, {
    contentType: type,
    metadata: { mediaId: id, userId: String(caller.userId) },
    maxBytes: ctx.config.MEDIA_MAX_BYTES,
  });
  const doc: MediaDoc = {
    _id: id,
    siteId: site._id,
    userId: caller.userId,
    key,
    name,
    contentType: type,
    size: upload.bits.length,
    createdAt: now,
  };
  try {
    await ctx.store.insertMedia(doc);
  } catch (err) {
    await ctx.blobs.delete(key).catch(() => undefined);
    throw err;
  }
  ctx.logger.info({ mediaId: id, siteId: site._id, size: doc.size }, 'media stored');
  return { url: mediaUrl(ctx, key), id };
}
