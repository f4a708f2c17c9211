import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, badRequest, tooManyRequests } from '@murmur/core';
import { errorStatusText, renderError } from '../src/errors.js';
import { zParam } from '../src/params.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;
let lines: string[];

beforeAll(async () => {
  ({ app, lines } = await buildApp(
    (scope) => {
      for (const prefix of ['/s', '/feeds/v2', '/oauth', '/page']) {
        defineRoute(scope, {
          method: 'GET',
          url: `${prefix}/items`,
          input: z.object({ per_page: zParam.int({ min: 1 }) }),
          handler: async () => ({ ok: true }),
        });
        defineRoute(scope, {
          method: 'GET',
          url: `${prefix}/crash`,
          handler: async () => {
            throw new Error('db password=hunter2 at /srv/secret.js');
          },
        });
        defineRoute(scope, {
          method: 'GET',
          url: `${prefix}/slow-down`,
          handler: async () => {
            throw tooManyRequests(42);
          },
        });
        defineRoute(scope, {
          method: 'GET',
          url: `${prefix}/xss`,
          handler: async () => {
            throw badRequest('bad <script>alert(1)</script>');
          },
        });
      }
      defineRoute(scope, {
        method: 'GET',
        url: '/override',
        errorStyle: 'oauth',
        handler: async () => {
          throw new AppError(400, 'invalid_grant', 'Code already used');
        },
      });
    },
    {
      errorStyle: (url) =>
        url.startsWith('/feeds/v2')
          ? 'feedbin'
          : url.startsWith('/oauth')
            ? 'oauth'
            : url.startsWith('/page')
              ? 'html'
              : 'simple',
    },
  ));
});

afterAll(async () => {
  await app.close();
});

describe('error bodies per area', () => {
  it('simple: {error}', async () => {
    const res = await send(app, { url: '/s/items?per_page=0' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ error: 'per_page: must be a positive integer' });
  });

  it('feedbin: {status, message, errors:[{param: text}]}', async () => {
    const res = await send(app, { url: '/feeds/v2/items?per_page=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Bad Request',
      errors: [{ per_page: 'Must be a positive integer' }],
    });
  });

  it('feedbin without a parameter has an empty errors list', async () => {
    const res = await send(app, { url: '/feeds/v2/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Not Found', errors: [] });
  });

  it('oauth: {error, error_description}', async () => {
    const res = await send(app, { url: '/oauth/items' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: 'per_page: is required' });
  });

  it('a route may choose its own style', async () => {
    const res = await send(app, { url: '/override' });
    expect(res.json()).toEqual({ error: 'invalid_grant', error_description: 'Code already used' });
  });

  it('html: an escaped page with the protective headers', async () => {
    const res = await send(app, { url: '/page/xss' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src https: data:; frame-ancestors 'none'",
    );
    expect(res.body).toContain('400 Bad Request');
    expect(res.body).toContain('bad &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(res.body).not.toContain('<script>');
  });

  it('unknown routes are 404 in the area style', async () => {
    expect((await send(app, { url: '/s/nope' })).json()).toEqual({ error: 'Not found.' });
    expect((await send(app, { url: '/oauth/nope' })).json()).toEqual({
      error: 'not_found',
      error_description: 'Not found.',
    });
    const page = await send(app, { url: '/page/nope' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('404 Not Found');
  });

  it('a malformed URL is 400 in the area style, with a request id', async () => {
    const res = await send(app, { url: '/feeds/v2/items/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Malformed URL.', errors: [] });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('AppError headers reach the client (429 Retry-After)', async () => {
    for (const prefix of ['/s', '/feeds/v2', '/oauth', '/page']) {
      const res = await send(app, { url: `${prefix}/slow-down` });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('42');
    }
  });
});

describe('500', () => {
  it('says only "Internal error" in every style, with the request id, and logs the real error', async () => {
    const bodies = [];
    for (const prefix of ['/s', '/feeds/v2', '/oauth', '/page']) {
      const res = await send(app, {
        url: `${prefix}/crash`,
        headers: { 'x-request-id': `crash-${prefix.length}` },
      });
      expect(res.statusCode).toBe(500);
      expect(res.headers['x-request-id']).toBe(`crash-${prefix.length}`);
      expect(res.body).not.toMatch(/hunter2|secret\.js|at \//);
      bodies.push(res.headers['content-type']?.includes('json') ? res.json() : res.body);
    }
    expect(bodies[0]).toEqual({ error: 'Internal error' });
    expect(bodies[1]).toEqual({ status: 500, message: 'Internal Server Error', errors: [] });
    expect(bodies[2]).toEqual({ error: 'internal_error', error_description: 'Internal error' });
    expect(bodies[3]).toContain('Internal error');
    const logged = lines.find((l) => l.includes('"requestId":"crash-2"') && l.includes('request failed'));
    expect(logged).toContain('hunter2');
  });
});

describe('renderError (for the gateway)', () => {
  it('renders any AppError without Fastify', () => {
    const r = renderError('feedbin', badRequest('ids: must have at most 100 ids', 'ids'), 'rid-1');
    expect(r.status).toBe(400);
    expect(r.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'rid-1',
    });
    expect(JSON.parse(r.body)).toEqual({
      status: 400,
      message: 'Bad Request',
      errors: [{ ids: 'Must have at most 100 ids' }],
    });
    expect(errorStatusText(413)).toBe('Payload Too Large');
  });

  it('keeps the message of deliberate 502/503/504 errors', () => {
    const r = renderError('simple', new AppError(503, 'unavailable', 'Service unavailable.'), 'rid');
    expect(JSON.parse(r.body)).toEqual({ error: 'Service unavailable.' });
  });
});
