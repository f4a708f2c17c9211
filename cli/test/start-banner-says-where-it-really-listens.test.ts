// `murmur start` prints where it really listens (cli/src/banner.ts): loopback by default, said so; on
// all interfaces when HOST=0.0.0.0, said plainly. Each banner is checked against the socket: a server
// bound to 127.0.0.1 alone refuses a connection to 127.0.0.2 (another loopback address of this
// machine), one bound to 0.0.0.0 answers it.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { collectLogLines } from '@murmur/testing';
import { spawnStart } from './spawn-start.js';

const running: Array<{ child: ChildProcess; dataDir: string }> = [];

afterEach(() => {
  for (const { child, dataDir } of running.splice(0)) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Starts `murmur start` with `env`; resolves with its banner line and port once it listens. */
async function banner(env: Record<string, string | undefined>): Promise<{ line: string; port: number }> {
  const started = await spawnStart([], 'warn', env);
  running.push(started);
  let line = '';
  const { ready } = collectLogLines(started.child, (text) => {
    if (!text.startsWith('Murmur is listening')) return false;
    line = text;
    return true;
  });
  await ready;
  return { line, port: started.port };
}

/** GET /healthz at `address`: its status, or the connection error's code. */
function healthz(address: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host: address, port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.setTimeout(5_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('murmur start says where it listens', () => {
  it('by default on loopback only, and says so', async () => {
    const { line, port } = await banner({ HOST: undefined });
    expect(line).toBe(
      `Murmur is listening on http://127.0.0.1:${port} — this machine only (HOST=0.0.0.0 opens it to ` +
        `your network). Public URL: http://localhost:${port}`,
    );
    expect(await healthz('127.0.0.1', port)).toBe(200);
    expect(await healthz('127.0.0.2', port)).toBe('ECONNREFUSED');
  }, 60_000);

  it('with HOST=0.0.0.0 on all interfaces, said plainly, with the address for this machine', async () => {
    const { line, port } = await banner({ HOST: '0.0.0.0', PUBLIC_URL: 'https://murmur.example' });
    expect(line).toBe(
      `Murmur is listening on all interfaces (0.0.0.0:${port}) — reachable from your network; ` +
        `http://127.0.0.1:${port} on this machine. Public URL: https://murmur.example`,
    );
    expect(await healthz('127.0.0.1', port)).toBe(200);
    expect(await healthz('127.0.0.2', port)).toBe(200);
  }, 60_000);
});
