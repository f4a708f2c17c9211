// `murmur start` run by hand without the single process's heap floor (libs/core/src/heap.ts)
// says so in its log, naming the command; run as `npm start` and the image run it, it does not.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { HEAP_FLOOR_MB, heapFloorFlag } from '@murmur/core';
import { collectLogLines } from '@murmur/testing';
import { spawnStart } from './spawn-start.js';
const running: Array<{ child: ChildProcess; dataDir: string }> = [];

afterEach(() => {
  for (const { child, dataDir } of running.splice(0)) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Runs `murmur start` under `nodeFlags`; resolves with its JSON log lines once it says it listens. */
async function startUntilListening(nodeFlags: string[]): Promise<Array<Record<string, unknown>>> {
  const started = await spawnStart(nodeFlags, 'warn');
  running.push(started);
  const { lines, ready } = collectLogLines(started.child, (text) => text.startsWith('Murmur is listening'));
  await ready;
  return lines;
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
