// A service behind the bus that does not answer is the client's 503 (nobody answering) or 504 (no
// answer in time), with Retry-After and a message naming the service — never a 500. And the `text`
// error style answers a plain-text reason (webmention).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { identity } from '@murmur/contracts';
import { connectBus } from '@murmur/runtime';
import { BusNoResponderError, BusTimeoutError, type Bus } from '@murmur/bus';
import { badRequest, internalError } from '@murmur/core';
import { busFailure, renderError } from '../src/errors.js';
import { defineRoute } from '../src/route.js';
import { testLogger } from '@murmur/testing';
import { buildApp, send, sleep } from './helpers.js';

let identityBus: Bus;
let bus: Bus;
let app: FastifyInstance;

beforeAll(async () => {
  const url = `memory:busfail-${randomUUID()}`;
  identityBus = await connectBus(url, { service: 'identity', logger: testLogger() });
  bus = await connectBus(url, { service: 'publishing', logger: testLogger() });
  // Only users.get is answered, slowly; credentials.verify has no responder at all.
  await identityBus.handle(identity.usersGet, async () => {
    await sleep(300);
    return { user: null };
  });
  ({ app } = await buildApp(
    (scope) => {
      defineRoute(scope, {
        method: 'GET',
        url: '/nobody',
        handler: async () =>
          bus.request(identity.credentialsVerify, { login: 'ann', token: 't' }, { timeoutMs: 200 }),
      });
      defineRoute(scope, {
        method: 'GET',
        url: '/slow',
        errorStyle: 'feedbin',
        handler: async () => bus.request(identity.usersGet, { id: 1 }, { timeoutMs: 50 }),
      });
      defineRoute(scope, {
        method: 'POST',
        url: '/webmention',
        errorStyle: 'text',
        handler: async () => {
          throw badRequest('source: must be an absolute http(s) URL', 'source');
        },
      });
      defineRoute(scope, {
        method: 'GET',
        url: '/webmention-down',
        errorStyle: 'text',
        handler: async () =>
          bus.request(identity.credentialsVerify, { login: 'a', token: 't' }, { timeoutMs: 200 }),
      });
    },
    { bus },
  ));
});

afterAll(async () => {
  await app.close();
  await bus.close();
  await identityBus.close();
});

describe('bus failures through defineRoute', () => {
  it('no responder → 503 with Retry-After naming the service', async () => {
    const res = await send(app, { url: '/nobody' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ error: 'The identity service is not answering; try again shortly.' });
  });

  it('a timeout → 504 with Retry-After, in the route style', async () => {
    const res = await send(app, { url: '/slow' });
    expect(res.statusCode).toBe(504);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ status: 504, message: 'Gateway Timeout', errors: [] });
  });

  it('busFailure gives XML-RPC the status of a bus error, and nothing for other errors', () => {
    expect(busFailure(new BusNoResponderError('identity.credentials.verify'))?.status).toBe(503);
    expect(busFailure(new BusTimeoutError('reader.recap.capabilities', 100))).toMatchObject({
      status: 504,
      message: 'The reader service did not answer in time; try again shortly.',
    });
    expect(busFailure(new Error('boom'))).toBeUndefined();
  });
});

describe('the text error style', () => {
  it('answers the message as text/plain', async () => {
    const res = await send(app, { method: 'POST', url: '/webmention', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('source: must be an absolute http(s) URL');
  });

  it('a 503 in text style keeps its reason and Retry-After', async () => {
    const res = await send(app, { url: '/webmention-down' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toBe('The identity service is not answering; try again shortly.');
  });

  it('a 500 says only Internal error', () => {
    const rendered = renderError('text', internalError(new Error('/var/lib/secret.db is locked')), 'rid');
    expect(rendered.status).toBe(500);
    expect(rendered.body).toBe('Internal error');
    expect(rendered.headers['x-request-id']).toBe('rid');
  });
});
