// `murmur start` run as a child process from the built CLI, as an operator runs it: the tests that read
// what it writes on stdout share this.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@murmur/testing';

const cliEntry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

/**
 * Spawns `node <nodeFlags> cli/dist/main.js start` on loopback ports of its own, the memory store and
 * bus, a fresh DATA_DIR (the caller removes it) and `logLevel`; stdout and stderr piped. `env` adds
 * variables or, with `undefined`, leaves one of these unset (`{ HOST: undefined }`: the default).
 */
export async function spawnStart(
  nodeFlags: string[],
  logLevel: string,
  env: Record<string, string | undefined> = {},
): Promise<{ child: ChildProcess; dataDir: string; port: number }> {
  if (!existsSync(cliEntry)) throw new Error('cli/dist/main.js is not built: run `npm run build`');
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-start-'));
  const port = await freePort();
  const variables: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    GATEWAY_INTERNAL_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    STORE_URL: 'memory:',
    BUS_URL: 'memory:',
    LOG_LEVEL: logLevel,
    ...env,
  };
  for (const [name, value] of Object.entries(variables)) if (value === undefined) delete variables[name];
  const child = spawn(process.execPath, [...nodeFlags, cliEntry, 'start'], {
    env: variables,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, dataDir, port };
}
