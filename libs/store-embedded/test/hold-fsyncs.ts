// Holds every FileHandle.datasync of this process (and counts them) until released: lets a store test
// see which writes are acknowledged before their fsync and which only after. useScratchStore gives
// such a test its directory, and closes, releases and removes what it opened there.
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from '@jest/globals';
import { EmbeddedStore } from '../src/embedded.js';
import { type Store } from '@murmur/store';

export interface HeldFsyncs {
  /** datasync calls since hold() */
  readonly count: number;
  /** Lets every held and later datasync run. */
  release(): void;
  /** Puts datasync back (after release). */
  restore(): void;
}

/**
 * `dir`: a scratch directory, where a probe file is opened to reach FileHandle's prototype. `onCall`
 * runs when a datasync is asked for (before it is held).
 */
export async function holdFsyncs(dir: string, onCall?: () => void): Promise<HeldFsyncs> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.datasync;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  proto.datasync = function (this: FileHandle) {
    count += 1;
    onCall?.();
    return gate.then(() => original.call(this));
  };
  return {
    get count() {
      return count;
    },
    release,
    restore: () => {
      proto.datasync = original;
    },
  };
}

/** Lets pending callbacks, I/O and timers of a few turns run. */
export const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 5));
};

export interface ScratchStore {
  /** This test's directory. */
  readonly dir: string;
  /** Opens (again, after a close) the embedded store in `dir`; closed after the test. */
  open(): Promise<Store>;
  /** holdFsyncs in `dir`; released and restored after the test. */
  hold(onCall?: () => void): Promise<HeldFsyncs>;
}

/** A fresh directory per test of this file (`prefix` names it), cleaned up after each. */
export function useScratchStore(prefix: string): ScratchStore {
  let dir = '';
  let store: Store | undefined;
  let held: HeldFsyncs | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    held?.release();
    held?.restore();
    held = undefined;
    // A test may have closed it already, or broken it on purpose.
    await store?.close().catch(() => undefined);
    store = undefined;
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    open: async () => {
      store = await EmbeddedStore.open({ service: 'test', location: { kind: 'file', dir } });
      return store;
    },
    hold: async (onCall) => {
      held = await holdFsyncs(dir, onCall);
      return held;
    },
  };
}
