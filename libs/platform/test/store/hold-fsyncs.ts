// Holds every FileHandle.datasync of this process (and counts them) until released: lets a store test
// see which writes are acknowledged before their fsync and which only after.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export interface HeldFsyncs {
  /** datasync calls since hold() */
  readonly count: number;
  /** Lets every held and later datasync run. */
  release(): void;
  /** Puts datasync back (after release). */
  restore(): void;
}

/** `dir`: a scratch directory, where a probe file is opened to reach FileHandle's prototype. */
export async function holdFsyncs(dir: string): Promise<HeldFsyncs> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = proto.datasync;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  proto.datasync = function (this: FileHandle) {
    count += 1;
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
