// A throw-away nats-server with JetStream for tests: own free port, own storage directory, removed on stop.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { describe as jestDescribe, test as jestTest } from '@jest/globals';
import { freePort } from './ports.js';

export interface NatsServerHandle {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 10_000;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * NATS_SERVER_BIN when set (and only it, so `NATS_SERVER_BIN=/nonexistent` simulates a machine without NATS),
 * else /usr/sbin/nats-server, else `nats-server` on PATH.
 */
export function natsServerBinary(): string | undefined {
  const configured = process.env.NATS_SERVER_BIN;
  const candidates = configured
    ? [configured]
    : [
        '/usr/sbin/nats-server',
        ...(process.env.PATH ?? '').split(delimiter).map((dir) => dir && join(dir, 'nats-server')),
      ];
  return candidates.find((c): c is string => !!c && isExecutable(c));
}

export function natsServerAvailable(): boolean {
  return natsServerBinary() !== undefined;
}

/**
 * Defines `fn` as a describe block when a nats-server binary exists. Without one the block is skipped under the
 * title `<title> — SKIPPED: nats-server not found`, unless REQUIRE_NATS=1 (CI): then it is a failing test instead,
 * so a CI machine without NATS cannot pass by skipping.
 */
export function describeWithNats(title: string, fn: () => void): void {
  // Jest's globals, looked up at call time: importing @jest/globals here would break non-jest users of testing/.
  const { describe, test } = globalThis as unknown as {
    describe: typeof jestDescribe;
    test: typeof jestTest;
  };
  if (natsServerAvailable()) return describe(title, fn);
  if (process.env.REQUIRE_NATS === '1') {
    return describe(title, () => {
      test('nats-server is required (REQUIRE_NATS=1)', () => {
        throw new Error(
          'REQUIRE_NATS=1 but no nats-server binary: set NATS_SERVER_BIN or put nats-server on PATH',
        );
      });
    });
  }
  describe.skip(`${title} — SKIPPED: nats-server not found`, fn);
}

async function startOnce(bin: string): Promise<NatsServerHandle> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'murmur-nats-'));
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  let ready = false;
  child.stderr.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
    ready ||= output.includes('Server is ready');
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (err) => {
      output += `\n${err.message}`;
      resolve();
    });
  });
  let running = true;
  void exited.then(() => (running = false));

  const stop = async () => {
    if (running) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  // "Server is ready" is logged once JetStream and the client port are up. Waiting for it (not for the port to
  // accept) also rules out talking to another process that grabbed the port after freePort() chose it.
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!ready) {
    if (!running || Date.now() > deadline) {
      await stop();
      throw new Error(`nats-server did not start on port ${port}: ${output.trim() || '(no output)'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `nats://127.0.0.1:${port}`, port, stop };
}

/** Starts a fresh server; retries on another port if the chosen one was taken in the meantime. */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const bin = natsServerBinary();
  if (!bin) throw new Error('nats-server not found: set NATS_SERVER_BIN or put nats-server on PATH');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(bin);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
