// XML-RPC over a real socket with the platform's sendOverWire, responses read by an independent parser:
// the npm xmlrpc package's deserializer, as its client would read them. `send` keeps the body as bytes
// too, for the media tests (sendOverWire gives text only).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { sendOverWire } from '@murmur/testing';
// @ts-expect-error — the package's internals have no type declarations; the deserializer is public API in its docs.
import Deserializer from 'xmlrpc/lib/deserializer.js';
import { encodeMethodCall } from '../src/xmlrpc/encode.js';
import type { XmlRpcOut } from '../src/xmlrpc/values.js';

export interface TestResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A request whose answer keeps its bytes (media); XML-RPC calls go through sendOverWire. */
export function send(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<TestResponse> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { host: hostname, port, method: options.method ?? 'GET', path: options.path, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: all,
            text: all.toString('utf8'),
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

export interface Fault {
  faultCode: number;
  faultString: string;
}

export interface RpcResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The raw response text. */
  text: string;
  /** The decoded value of a successful call. */
  value?: any;
  fault?: Fault;
}

/** Reads a <methodResponse> the way the npm xmlrpc client does. */
export function readMethodResponse(text: string): Promise<{ value?: unknown; fault?: Fault }> {
  return new Promise((resolve, reject) => {
    new Deserializer().deserializeMethodResponse(Readable.from([text]), (err: any, value: unknown) => {
      if (err && err.faultCode !== undefined)
        resolve({ fault: { faultCode: err.faultCode, faultString: err.faultString } });
      else if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve({ value });
    });
  });
}

export async function postXml(
  baseUrl: string,
  xml: string | Buffer,
  headers: Record<string, string> = {},
): Promise<RpcResponse> {
  const res = await sendOverWire(baseUrl, {
    method: 'POST',
    url: '/xmlrpc',
    headers: { 'content-type': 'text/xml', ...headers },
    payload: xml,
  });
  const out: RpcResponse = { statusCode: res.statusCode, headers: res.headers, text: res.body };
  if (res.statusCode === 200) Object.assign(out, await readMethodResponse(res.body));
  return out;
}

export function callXmlRpc(
  baseUrl: string,
  method: string,
  params: XmlRpcOut[],
  headers: Record<string, string> = {},
): Promise<RpcResponse> {
  return postXml(baseUrl, encodeMethodCall(method, params), headers);
}
