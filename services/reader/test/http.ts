// Requests to a listening service over a real socket, read the way app.inject() would answer them.
import { sendOverWire, type WireRequest, type WireResponse } from '@murmur/platform/testing';

export type TestRequest = WireRequest;
export type TestResponse = WireResponse;

/** Like sendOverWire, but a string payload is JSON unless a content type is given (most tests send JSON text). */
export function send(baseUrl: string, options: TestRequest): Promise<TestResponse> {
  const headers = { ...options.headers };
  if (typeof options.payload === 'string') headers['content-type'] ??= 'application/json';
  return sendOverWire(baseUrl, { ...options, headers });
}
