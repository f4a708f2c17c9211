// `murmur start` run by hand without the single process's heap floor (libs/platform/src/runtime/heap.ts)
// says so in its log, naming the command; run as `npm start` and the image run it, it does not.
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAP_FLOOR_MB, heapFloorFlag } from '@murmur/platform';
import { freePort } from '@murmur/platform/testing';

const cliEntry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const running: Array<{ child: ChildProcess; dataDir: string }> = [];

afterEach(() => {
  for (const { child, dataDir } of running.splice(0)) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Runs `murmur start` under `nodeFlags`; resolves with its JSON log lines once it says it listens. */
async function startUntilListening(nodeFlags: string[]): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(cliEntry)) throw new Error('cli/dist/main.js is not built: run `npm run build`');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-heap-floor-'));
  const child = spawn(process.execPath, [...nodeFlags, cliEntry, 'start'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      GATEWAY_INTERNAL_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      STORE_URL: 'memory:',
      BUS_URL: 'memory:',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push({ child, dataDir });
  return new Promise((resolve, reject) => {
    const lines: Array<Record<string, unknown>> = [];
    let buffered = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith('Murmur is listening')) resolve(lines);
        else if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`murmur start exited (${code}) before listening: ${stderr}`)),
    );
  });
}

const heapWarnings = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => String(l.msg).includes('started without the heap floor'));

describe('murmur start and its heap floor', () => {
  it('warns, naming the command, when node was started without it', async () => {
    const warned = heapWarnings(await startUntilListening([]));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn', service: 'murmur', expectedMb: HEAP_FLOOR_MB.single });
    expect(warned[0]!.msg).toContain(`node ${heapFloorFlag('single')} cli/dist/main.js start`);
  });

  it('says nothing when started as npm start and the image start it', async () => {
    expect(heapWarnings(await startUntilListening([heapFloorFlag('single')]))).toEqual([]);
  });
});
