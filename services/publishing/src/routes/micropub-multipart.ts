// multipart/form-data bodies of the Micropub endpoints (files in `photo`, `video`, `audio`, or the media
// endpoint's `file`). The body has already been buffered under the route's bodyLimit; this splits it into
// its parts in one pass over the bytes. Text parts become parameters as a form body's would (`name[]`
// arrays included); parts with a filename are files.
import { badRequest } from '@murmur/core';
import { MAX_PARAMS, paramsFromPairs, type ParamRecord } from '@murmur/http';

export interface UploadedFile {
  /** The part's name: `photo`, `photo[]` → `photo`. */
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface MultipartBody {
  params: ParamRecord;
  files: UploadedFile[];
}

/** Files one request may carry (a post with a few photos, a video and an audio clip is far below it). */
export const MAX_FILES = 20;
const MAX_HEADER_BYTES = 8 * 1024;

function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw badRequest('Content-Type: multipart/form-data needs a boundary.');
  return boundary;
}

/** `form-data; name="photo[]"; filename="a.jpg"` → its name and filename (quoted or not). */
function dispositionOf(value: string): { name?: string; filename?: string } {
  const out: { name?: string; filename?: string } = {};
  for (const m of value.matchAll(/;\s*(name|filename)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/gi)) {
    const key = m[1]!.toLowerCase() as 'name' | 'filename';
    out[key] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return out;
}

export function parseMultipart(body: Buffer, contentType: string): MultipartBody {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const pairs: Array<[string, string]> = [];
  const files: UploadedFile[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw badRequest('The multipart body has no parts.');
  for (;;) {
    at += delimiter.length;
    // `--` after a delimiter ends the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0 || headerEnd - at > MAX_HEADER_BYTES) throw badRequest('Malformed multipart body.');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd);
    if (next < 0) throw badRequest('Malformed multipart body: a part is not closed.');
    const headers = body.subarray(at, headerEnd).toString('utf8').split('\r\n');
    let disposition: { name?: string; filename?: string } = {};
    let type = 'application/octet-stream';
    for (const line of headers) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-disposition') disposition = dispositionOf(value);
      else if (name === 'content-type') type = value;
    }
    const content = body.subarray(headerEnd + 4, next);
    if (disposition.name !== undefined && disposition.name !== '') {
      if (disposition.filename !== undefined) {
        if (files.length >= MAX_FILES) throw badRequest(`At most ${MAX_FILES} files in one request.`);
        files.push({
          field: disposition.name.replace(/\[\d*\]$/, ''),
          filename: disposition.filename,
          contentType: type,
          bytes: Buffer.from(content),
        });
      } else {
        if (pairs.length >= MAX_PARAMS) throw badRequest(`Too many parameters (more than ${MAX_PARAMS}).`);
        pairs.push([disposition.name, content.toString('utf8')]);
      }
    }
    at = next + 2;
  }
  return { params: paramsFromPairs(pairs), files };
}
