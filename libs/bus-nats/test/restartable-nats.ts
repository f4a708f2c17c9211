// A nats-server for fault tests that can be stopped and started again on the same port, with its storage kept or
// wiped — what an operator's restart (or a pod rescheduled without its volume) looks like to the clients.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerBinary, freePort } from '@murmur/testing';

export interface RestartableNats {
  url: string;
  /** Stops the server (SIGTERM); clients start reconnecting. */
  stop(): Promise<void>;
  /** Starts it again on the same port; `wipe` first deletes its storage, so every stream and consumer is gone. */
  start(options?: { wipe?: boolean }): Promise<void>;
  /** Stops it for good and removes its storage. */
  dispose(): Promise<void>;
}

export async function startRestartableNats(): Promise<RestartableNats> {
  const bin = natsServerBinary();
  if (!bin) throw new Error('nats-server not found');
  const port = await freePort();
  let dir = await mkdtemp(join(tmpdir(), 'murmur-nats-restart-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async ({ wipe = false } = {}) => {
    if (wipe) {
      await rm(dir, { recursive: true, force: true });
      dir = await mkdtemp(join(tmpdir(), 'murmur-nats-restart-'));
    }
    const proc = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let output = '';
    const deadline = Date.now() + 10_000;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.includes('Server is ready')) return resolve();
        if (proc.exitCode !== null || Date.now() > deadline) {
          return reject(new Error(`nats-server did not start on port ${port}: ${output.slice(-2000)}`));
        }
        setTimeout(check, 25);
      };
      proc.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
      check();
    });
  };

  const stop = async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    child = undefined;
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start,
    dispose: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
