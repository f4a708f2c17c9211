// `murmur start` at the default log level writes one `request completed` line for a request its gateway
// hands to a service in process — the gateway's, naming the service — not a second one from the service
// (libs/platform/src/http/hand-off-response.ts, markHandedOver). Both ways a request is handed over are
// covered: the fast lane (a plain request) and the gateway's route (here taken because of RFC 7239's
// Forwarded header, which the lane leaves to it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { collectLogLines, type LogLine } from '@murmur/platform/testing';
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
    // The gateway's line is written when the response closes; give a second line time to arrive too.
    const deadline = Date.now() + 2_000;
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
});
