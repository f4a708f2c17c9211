// `murmur start` at the default log level writes one `request completed` line for a request its gateway
// hands to a service in process — the gateway's, naming the service — not a second one from the service
// (libs/platform/src/http/hand-off-response.ts, markHandedOver). Both ways a request is handed over are
// covered: the fast lane (a plain request) and the gateway's route (here taken because of RFC 7239's
// Forwarded header, which the lane leaves to it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@murmur/platform/testing';

const cliEntry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

describe('murmur start logs each request once', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-log-once-'));
  const lines: Array<Record<string, unknown>> = [];
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(cliEntry)) throw new Error('cli/dist/main.js is not built: run `npm run build`');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [cliEntry, 'start'], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        GATEWAY_INTERNAL_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        STORE_URL: 'memory:',
        BUS_URL: 'memory:',
        // The default, spelled out: the level `npm start` runs at.
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.startsWith('Murmur is listening')) resolve();
          else if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        }
      });
      child.once('exit', (code) => reject(new Error(`murmur start exited (${code}): ${stderr}`)));
    });
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
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
