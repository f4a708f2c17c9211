// Requests to a listening service over a real socket, read the way app.inject() would answer them.
// (Under jest on Node 20, light-my-request cannot load its ESM-only `cookie` dependency, so inject is out.)
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface TestRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are (JSON unless a content-type is given). */
  payload?: string | Buffer | object;
}

export interface TestResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any;
}

export function send(baseUrl: string, options: TestRequest): Promise<TestResponse> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let body: Buffer | undefined;
  if (Buffer.isBuffer(options.payload)) body = options.payload;
  else if (typeof options.payload === 'string') {
    body = Buffer.from(options.payload);
    headers['content-type'] ??= 'application/json';
  } else if (options.payload !== undefined) {
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
