// A request over a real socket, answered in app.inject()'s shape. Tests use it where the wire itself
// matters: a server that answers 413/415 and closes before the body is written, exact header bytes.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface WireRequest {
  method?: string;
  /** Path and query. */
  url: string;
  headers?: Record<string, string>;
  /** Buffers and strings are sent as they are; other values as JSON (with a JSON content type). */
  payload?: string | Buffer | object;
}

export interface WireResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads what it expects
}

export function sendOverWire(baseUrl: string, options: WireRequest): Promise<WireResponse> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let body: Buffer | undefined;
  if (Buffer.isBuffer(options.payload)) body = options.payload;
  else if (typeof options.payload === 'string') body = Buffer.from(options.payload);
  else if (options.payload !== undefined) {
    body = Buffer.from(JSON.stringify(options.payload));
    headers['content-type'] ??= 'application/json';
  }
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { host: hostname, port, method: options.method ?? 'GET', path: options.url, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text),
          });
        });
        res.on('error', reject);
      },
    );
    // The server may answer (413, 415) and close before the whole body is written.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}

/**
 * Like sendOverWire, but a string payload is JSON unless a content type is given (most service tests
 * send JSON text).
 */
export function send(baseUrl: string, options: WireRequest): Promise<WireResponse> {
  const headers = { ...options.headers };
  if (
    typeof options.payload === 'string' &&
    !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
  )
    headers['content-type'] = 'application/json';
  return sendOverWire(baseUrl, { ...options, headers });
}

/** `Authorization: Basic …` for a login and password. */
export function basicAuth(login: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
}
