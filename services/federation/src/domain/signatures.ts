// HTTP Signatures as the fediverse uses them (docs/api/federation.md, "Signatures";
// docs/adr/0020-federation-activitypub.md). We sign what we send in the draft-cavage form every server
// verifies (Mastodon's: rsa-sha256 over `(request-target) host date digest`), and verify both that form
// and RFC 9421 (`Signature-Input` / `Signature`) on what we receive. The signature bases are built by
// `http-message-signatures`; what a signature must cover, how old it may be and whether the body's
// digest matches are decided here, with the service's clock.
import { createHash, verify as verifyBytes, constants, webcrypto, type KeyObject } from 'node:crypto';
import { cavage, httpbis } from 'http-message-signatures';
import { parseDictionary, isInnerList } from 'structured-headers';
import { formatHttpDate } from '@murmur/core';

/** A Date (or `created`) older than this is stale (Mastodon's window). */
export const MAX_SIGNATURE_AGE_MS = 12 * 3_600_000;
/** …and one further ahead than this is refused too (clock skew). */
export const MAX_CLOCK_SKEW_MS = 3_600_000;

export class SignatureError extends Error {}

function sha256(body: string | Uint8Array): Buffer {
  return createHash('sha256').update(body).digest();
}

/** `SHA-256=<base64>`: the RFC 3230 Digest of a body, as cavage signatures cover it. */
export function digestHeader(body: string | Uint8Array): string {
  return `SHA-256=${sha256(body).toString('base64')}`;
}

/**
 * The headers that sign a request in the draft-cavage form: Date, Digest (with a body) and Signature.
 * `Host` is the URL's, which the HTTP client sends. RSA signing runs in WebCrypto, which does it on the
 * thread pool: twice as fast as a KeyObject here, and several at once (bench/README.md, "Federation").
 */
export async function signCavage(input: {
  method: string;
  url: URL;
  body?: string | Uint8Array;
  keyId: string;
  privateKey: webcrypto.CryptoKey;
  now: Date;
}): Promise<Record<string, string>> {
  const headers: Record<string, string> = { date: formatHttpDate(input.now) };
  const covered = ['(request-target)', 'host', 'date'];
  const lines = [
    `(request-target): ${input.method.toLowerCase()} ${input.url.pathname}${input.url.search}`,
    `host: ${input.url.host}`,
    `date: ${headers.date}`,
  ];
  if (input.body !== undefined) {
    headers.digest = digestHeader(input.body);
    covered.push('digest');
    lines.push(`digest: ${headers.digest}`);
  }
  const signature = Buffer.from(
    await webcrypto.subtle.sign('RSASSA-PKCS1-v1_5', input.privateKey, Buffer.from(lines.join('\n'))),
  ).toString('base64');
  headers.signature = `keyId="${input.keyId}",algorithm="rsa-sha256",headers="${covered.join(' ')}",signature="${signature}"`;
  return headers;
}

/** A request as it arrived, for verification. */
export interface SignedRequest {
  method: string;
  /** The request target as received (path and query). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
}

export interface VerifiedSignature {
  keyId: string;
  scheme: 'cavage' | 'rfc9421';
}

/** Finds the public key of a key id; `refresh` asks for it again from its owner (a rotated key). */
export type KeyLookup = (keyId: string, refresh: boolean) => Promise<KeyObject | null>;

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function checkTime(ms: number, now: Date, what: string): void {
  if (!Number.isFinite(ms)) throw new SignatureError(`${what} is not a date`);
  if (now.getTime() - ms > MAX_SIGNATURE_AGE_MS) throw new SignatureError(`${what} is too old`);
  if (ms - now.getTime() > MAX_CLOCK_SKEW_MS) throw new SignatureError(`${what} is in the future`);
}

/** Digest (RFC 3230) or Content-Digest (RFC 9530) against the body: SHA-256 or SHA-512. */
function checkDigest(value: string | undefined, body: Buffer, form: 'digest' | 'content-digest'): void {
  if (value === undefined) throw new SignatureError(`${form} header is missing`);
  const wanted: Record<string, () => string> = {
    'sha-256': () => createHash('sha256').update(body).digest('base64'),
    'sha-512': () => createHash('sha512').update(body).digest('base64'),
  };
  const entries =
    form === 'digest'
      ? value.split(',').map((part) => {
          const at = part.indexOf('=');
          return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()] as const;
        })
      : [...parseDictionarySafe(value, form).entries()].map(([name, item]) => {
          const bytes = item[0];
          return [name, bytes instanceof ArrayBuffer ? Buffer.from(bytes).toString('base64') : ''] as const;
        });
  let checked = false;
  for (const [algorithm, given] of entries) {
    const compute = wanted[algorithm];
    if (!compute) continue;
    if (compute() !== given) throw new SignatureError(`${form} does not match the body`);
    checked = true;
  }
  if (!checked) throw new SignatureError(`${form} has no SHA-256 or SHA-512 value`);
}

function parseDictionarySafe(value: string, what: string): ReturnType<typeof parseDictionary> {
  try {
    return parseDictionary(value);
  } catch {
    throw new SignatureError(`${what} is malformed`);
  }
}

/** Verifies with what the key is: RSA (PKCS#1 v1.5 SHA-256, or PSS SHA-512 when named) or Ed25519. */
function verifierOf(key: KeyObject, alg: string | undefined) {
  return async (data: Buffer, signature: Buffer): Promise<boolean> => {
    if (key.asymmetricKeyType === 'ed25519') return verifyBytes(null, data, key, signature);
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
      if (alg === 'rsa-pss-sha512') {
        return verifyBytes(
          'sha512',
          data,
          { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 },
          signature,
        );
      }
      return verifyBytes('sha256', data, key, signature);
    }
    return false;
  };
}

interface CavageParams {
  keyId: string;
  algorithm?: string;
  headers: string[];
  created?: number;
}

function parseCavage(header: string): CavageParams {
  const params = new Map<string, string>();
  for (const match of header.matchAll(/([A-Za-z]+)=(?:"([^"]*)"|([^,]*))/g)) {
    const name = match[1]!.toLowerCase();
    if (params.has(name)) throw new SignatureError('signature repeats a parameter');
    params.set(name, match[2] ?? match[3] ?? '');
  }
  const keyId = params.get('keyid');
  if (!keyId) throw new SignatureError('signature has no keyId');
  if (!params.get('signature')) throw new SignatureError('signature has no signature');
  const created = params.get('created');
  return {
    keyId,
    algorithm: params.get('algorithm')?.toLowerCase(),
    headers: (params.get('headers') ?? '(created)').toLowerCase().split(/\s+/).filter(Boolean),
    ...(created === undefined ? {} : { created: Number(created) }),
  };
}

/**
 * Verifies a signed request for this server (`origin`: PUBLIC_URL's origin, whose host the sender
 * signed — a proxy in between may have changed the Host header). Throws SignatureError saying why.
 */
export async function verifySignedRequest(
  req: SignedRequest,
  options: { origin: string; now: Date; lookupKey: KeyLookup },
): Promise<VerifiedSignature> {
  const origin = new URL(options.origin);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    const text = headerText(value);
    if (text !== undefined) headers[name.toLowerCase()] = text;
  }
  headers.host = origin.host;
  const message = { method: req.method.toUpperCase(), url: `${origin.origin}${req.path}`, headers };
  const hasBody = req.body !== undefined && req.body.length > 0;

  if (headers['signature-input'] !== undefined) {
    return verifyRfc9421(message, headers, hasBody ? req.body! : undefined, options);
  }
  if (headers.signature === undefined) throw new SignatureError('the request is not signed');
  const params = parseCavage(headers.signature);
  if (!params.headers.includes('(request-target)'))
    throw new SignatureError('signature does not cover (request-target)');
  if (!params.headers.includes('host')) throw new SignatureError('signature does not cover host');
  if (params.headers.includes('date')) {
    checkTime(Date.parse(headers.date ?? ''), options.now, 'Date');
  } else if (params.headers.includes('(created)') && params.created !== undefined) {
    checkTime(params.created * 1000, options.now, 'created');
  } else throw new SignatureError('signature covers neither date nor (created)');
  if (hasBody) {
    if (!params.headers.includes('digest')) throw new SignatureError('signature does not cover digest');
    checkDigest(headers.digest, req.body!, 'digest');
  }
  const attempt = async (refresh: boolean): Promise<boolean> => {
    const key = await options.lookupKey(params.keyId, refresh);
    if (!key) throw new SignatureError('the signing key could not be found');
    try {
      return (
        (await cavage.verifyMessage(
          { keyLookup: async () => ({ id: params.keyId, verify: verifierOf(key, params.algorithm) }) },
          message,
        )) === true
      );
    } catch (err) {
      throw new SignatureError(`signature is malformed: ${(err as Error).message}`);
    }
  };
  if ((await attempt(false)) || (await attempt(true))) return { keyId: params.keyId, scheme: 'cavage' };
  throw new SignatureError('signature does not verify');
}

async function verifyRfc9421(
  message: { method: string; url: string; headers: Record<string, string> },
  headers: Record<string, string>,
  body: Buffer | undefined,
  options: { now: Date; lookupKey: KeyLookup },
): Promise<VerifiedSignature> {
  if (headers.signature === undefined) throw new SignatureError('Signature-Input without Signature');
  const inputs = parseDictionarySafe(headers['signature-input']!, 'Signature-Input');
  // The first signature is the one we check (a request carrying several is signed for each by one sender).
  const [label, input] = [...inputs.entries()][0] ?? [];
  if (label === undefined || input === undefined || !isInnerList(input)) {
    throw new SignatureError('Signature-Input is malformed');
  }
  const components = input[0].map(([name]) => String(name).toLowerCase());
  const params = input[1];
  const keyId = params.get('keyid');
  if (typeof keyId !== 'string' || keyId === '') throw new SignatureError('Signature-Input has no keyid');
  const alg = params.get('alg');
  if (!components.includes('@method')) throw new SignatureError('signature does not cover @method');
  if (
    !components.includes('@target-uri') &&
    !(components.includes('@authority') && components.includes('@path'))
  ) {
    throw new SignatureError('signature does not cover @target-uri');
  }
  const created = params.get('created');
  if (typeof created !== 'number') throw new SignatureError('Signature-Input has no created time');
  checkTime(created * 1000, options.now, 'created');
  const expires = params.get('expires');
  if (typeof expires === 'number' && expires * 1000 < options.now.getTime()) {
    throw new SignatureError('signature has expired');
  }
  if (body !== undefined) {
    if (!components.includes('content-digest'))
      throw new SignatureError('signature does not cover content-digest');
    checkDigest(headers['content-digest'], body, 'content-digest');
  }
  const attempt = async (refresh: boolean): Promise<boolean> => {
    const key = await options.lookupKey(keyId, refresh);
    if (!key) throw new SignatureError('the signing key could not be found');
    try {
      return (
        (await httpbis.verifyMessage(
          {
            // Only the first signature's key answers: the library then checks that one alone.
            keyLookup: async (p) =>
              p.keyid === keyId
                ? { id: keyId, verify: verifierOf(key, typeof alg === 'string' ? alg : undefined) }
                : null,
            // Times were checked above with the service's clock; the library's own clock is not ours.
            notAfter: Number.MAX_SAFE_INTEGER,
            tolerance: 100 * 365 * 86_400,
          },
          message,
        )) === true
      );
    } catch (err) {
      throw new SignatureError(`signature is malformed: ${(err as Error).message}`);
    }
  };
  if ((await attempt(false)) || (await attempt(true))) return { keyId, scheme: 'rfc9421' };
  throw new SignatureError('signature does not verify');
}
