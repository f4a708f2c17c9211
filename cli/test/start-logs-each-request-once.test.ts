// `murmur start` at the default log level writes one `request completed` line for a request its gateway
// hands to a service in process — the gateway's, naming the service — not a second one from the service
// (libs/http/src/hand-off-response.ts, markHandedOver). Both ways a request is handed over are
// covered: the fast lane (a plain request) and the gateway's route (here taken because of RFC 7239's
// Forwarded header, which the lane leaves to it), and so is the route's injection, which a body sent
// chunked takes (markInjected).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { collectLogLines, type LogLine } from '@murmur/testing';
import { spawnStart } from './spawn-start.js';

describe('murmur start logs each request once', () => {
  let dataDir = '';
  let lines: LogLine[] = [];
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    // The default level, spelled out: the level `npm start` runs at.
    const started = await spawnStart([], 'info');
    ({ child, dataDir } = started);
    base = `http://127.0.0.1:${started.port}`;
    const collected = collectLogLines(child, (text) => text.startsWith('Murmur is listening'));
    lines = collected.lines;
    await collected.ready;
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The `request completed` lines of `requestId`, once its answer is in and the lines have been read. */
  async function completedLines(requestId: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${base}/account/me`, { headers: { 'x-request-id': requestId, ...headers } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    await res.text();
    return linesOf(requestId);
  }

  /** The `request completed` lines of `requestId`, once they have been read (and a second one could have been). */
  async function linesOf(requestId: string) {
    // The gateway's line is written when the response closes, asynchronously: on a loaded machine it can
    // come well after the answer. Then give a second line time to arrive too.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !lines.some((l) => l.requestId === requestId))
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    return lines.filter((l) => l.requestId === requestId && l.msg === 'request completed');
  }

  it('one line for a plain request (the fast lane), the gateway naming the service', async () => {
    const mine = await completedLines('log-once-lane-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ service: 'gateway', upstream: 'identity', res: { statusCode: 401 } });
  });

  it("one line for a request handed over by the gateway's route", async () => {
    const mine = await completedLines('log-once-route-1', { forwarded: 'for=203.0.113.9' });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ service: 'gateway', upstream: 'identity', res: { statusCode: 401 } });
  });

  it("one line for a request whose body comes chunked (the route's injection)", async () => {
    const requestId = 'log-once-chunked-1';
    // POST /admin/users without the operator's token: identity answers 401 after the body has come.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/admin/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        expect(res.headers['x-request-id']).toBe(requestId);
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      // Two writes and no Content-Length: Node sends the body chunked.
      req.write('{"username":');
      req.end('"chunked"}');
    });
    expect(status).toBe(401);
    const mine = await linesOf(requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ service: 'gateway', upstream: 'identity', res: { statusCode: 401 } });
  });
});
