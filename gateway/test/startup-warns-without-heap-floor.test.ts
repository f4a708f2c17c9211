// The gateway started by hand without its heap floor or its young-generation cap
// (libs/core/src/heap.ts) says so in its log, naming the command that sets them; started as
// the Dockerfile, compose and Kubernetes start it, it does not. The process itself is started: the warning is about how node was launched.
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAP_FLOOR_MB, YOUNG_GENERATION_CAP_MB, heapFloorFlag, launchFlags } from '@murmur/core';
import { collectLogLines, freePort } from '@murmur/testing';

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the gateway with `nodeFlags`; resolves with its log lines up to the line saying it listens. */
async function linesUntilListening(
  nodeFlags: string[],
  env: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(entry)) throw new Error('gateway/dist/main.js is not built: run `npm run build`');
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, entry], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GATEWAY_INTERNAL_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const { lines, ready } = collectLogLines(
    child,
    (_text, parsed) => /listening/i.test(String(parsed?.msg)) && String(parsed?.msg).includes(String(port)),
  );
  await ready;
  return lines;
}

const heapWarning = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => String(l.msg).includes('started without the heap floor'));
const capWarning = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => String(l.msg).includes('started without the young-generation cap'));
const command = `node ${launchFlags('gateway').join(' ')} gateway/dist/main.js`;

describe('the gateway process and its heap floor', () => {
  it('warns, naming the flag, when node was started without it', async () => {
    const warned = heapWarning(await linesUntilListening([]));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn', heapFloorMb: null, expectedMb: HEAP_FLOOR_MB.gateway });
    expect(warned[0]!.msg).toContain(command);
  });

  it('warns when the floor given is lower than the gateway needs', async () => {
    const warned = heapWarning(await linesUntilListening(['--initial-old-space-size=16']));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ heapFloorMb: 16 });
  });

  it('warns, naming the command, when started with the floor but without the young-generation cap', async () => {
    const lines = await linesUntilListening([heapFloorFlag('gateway')]);
    expect(heapWarning(lines)).toEqual([]);
    const warned = capWarning(lines);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      level: 'warn',
      semiSpaceMb: null,
      expectedMb: YOUNG_GENERATION_CAP_MB.gateway,
    });
    expect(warned[0]!.msg).toContain(command);
    expect(
      capWarning(await linesUntilListening([heapFloorFlag('gateway'), '--max-semi-space-size=16'])),
    ).toHaveLength(1);
    // Given in NODE_OPTIONS, where Node accepts it, it counts as well.
    const viaOptions = await linesUntilListening([heapFloorFlag('gateway')], {
      NODE_OPTIONS: '--max-semi-space-size=4',
    });
    expect(capWarning(viaOptions)).toEqual([]);
  });

  it('says nothing when started as the deployment files start it', async () => {
    const lines = await linesUntilListening(launchFlags('gateway'));
    expect(lines.length).toBeGreaterThan(0);
    expect(heapWarning(lines)).toEqual([]);
    expect(capWarning(lines)).toEqual([]);
  });
});
