// Start built service entry points as child processes and wait until they are ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ChildHandle {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function startChild(
  name: string,
  entry: string,
  env: Record<string, string>,
  /** Node's own flags before the entry file (the gateway's heap floor, as compose and Kubernetes run it). */
  nodeArgs: readonly string[] = [],
): ChildHandle {
  const file = join(repoRoot, entry);
  if (!existsSync(file))
    throw new Error(`${entry} is not built: run \`npm run build\` (npm test builds first)`);
  const child = spawn(process.execPath, [...nodeArgs, file], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    name,
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Polls `url` until it answers 200, failing with the child's output if it exits or takes too long. */
export async function waitReady(handle: ChildHandle, url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null) {
      throw new Error(`${handle.name} exited with ${handle.child.exitCode}:\n${handle.output()}`);
    }
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${handle.name} not ready at ${url} within ${timeoutMs} ms:\n${handle.output()}`);
}
