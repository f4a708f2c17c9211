// The heap floor: the processes that pass large bodies through sockets are started with
// `node --initial-old-space-size=<MB>`, below which V8 does not run full (mark-compact) collections.
//
// Why (measured 2026-11-25; docs/adr/0016-in-process-dispatch-and-gateway-cost.md, revision "a heap floor"):
// every socket read allocates a fresh buffer outside the JavaScript heap, and V8 counts such memory
// allocated since its last full collection against the old generation's allowance. The gateway's
// heap is small (about 23 MB live), so V8 gives it an allowance of only about 10 MB above that; the
// read buffers of 145 KB reader pages passing through fill it between two young collections, and V8
// then ran a full collection every 150–300 ms that freed nothing, with pauses of 2–10 ms — the whole
// of the gateway's added p99 on that page. With a 64 MB floor it ran one in the same run. The single
// process (about 50 MB live) gets 128 MB: its gateway path went from 82–85 to 85–88 % of the identity
// service's own throughput with it, while the identity service alone gained nothing from one.
//
// The gateway's young generation is also capped (`--max-semi-space-size=4`, measured 2026-11-28; ADR 0016,
// revision "the gateway's young generation capped at 4 MB"): the floor only moves the old generation's
// allowance, while V8 also starts a full collection whenever 64 MB of memory outside the heap has been
// allocated since the last one. The gateway allocates little on its heap for each large answer it passes
// on (the bytes are in read buffers outside it), so once a burst of small requests has grown its young
// generation to V8's 16 MB, young collections — which free those buffers — come seconds apart, the read
// buffers reach 64 MB first, and V8 ran a full collection every second or two (25–29 in 80 s of entries
// pages at 226 a second; atomic pauses of 6–12 ms plus marking steps of up to 12 ms) that freed what a
// young collection would have. Capped at 4 MB, young collections come often enough to free them: no full
// collection in the same runs, and `GET /account/me` through the gateway kept its throughput and p99 in a
// paired run.
//
// The flags cannot be set from NODE_OPTIONS (V8 flags there are limited to a short list) nor from
// code once V8 has started, so they are on the launch commands: `npm start`, the Dockerfile, compose and
// the Kubernetes manifests. An entry started without them logs a warning naming the command.
import type { Logger } from './log/index.js';

/** The floor per kind of process, in MB. */
export const HEAP_FLOOR_MB = {
  /** The gateway on its own (distributed mode). */
  gateway: 64,
  /** The single process (`murmur start`): the gateway and every service. */
  single: 128,
} as const;

export type HeapFloorProcess = keyof typeof HEAP_FLOOR_MB;

/** The node flag that sets `which` process's floor. */
export function heapFloorFlag(which: HeapFloorProcess): string {
  return `--initial-old-space-size=${HEAP_FLOOR_MB[which]}`;
}

/** The cap on the young generation's semi-spaces, in MB, of the processes that have one. */
export const YOUNG_GENERATION_CAP_MB: Partial<Record<HeapFloorProcess, number>> = { gateway: 4 };

/** Every node flag `which` process is launched with: its heap floor, then its young-generation cap. */
export function launchFlags(which: HeapFloorProcess): string[] {
  const cap = YOUNG_GENERATION_CAP_MB[which];
  return [heapFloorFlag(which), ...(cap === undefined ? [] : [`--max-semi-space-size=${cap}`])];
}

/** The value of V8 flag `--<name>=<MB>` a process was started with (`-` or `_` in the name), or null. */
function flagMbOf(name: string, execArgv: readonly string[]): number | null {
  const pattern = new RegExp(`^--${name.replace(/-/g, '[-_]')}=(\\d+)$`);
  let found: number | null = null;
  for (const arg of execArgv) {
    const m = pattern.exec(arg);
    if (m) found = Number(m[1]);
  }
  return found;
}

/**
 * Logs a warning when this process was started without at least `which`'s floor, or without its
 * young-generation cap (or with a larger one), naming the command that sets them.
 */
export function warnWithoutHeapFloor(
  logger: Pick<Logger, 'warn'>,
  which: HeapFloorProcess,
  entry: string,
  // NODE_OPTIONS counts too: --max-semi-space-size is one of the V8 flags Node accepts there.
  execArgv: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): void {
  const command = `node ${launchFlags(which).join(' ')} ${entry}`;
  const floor = flagMbOf('initial-old-space-size', execArgv);
  if (floor === null || floor < HEAP_FLOOR_MB[which])
    logger.warn(
      { heapFloorMb: floor, expectedMb: HEAP_FLOOR_MB[which] },
      `started without the heap floor: run \`${command}\` ` +
        '(otherwise large answers make V8 collect the whole heap every few hundred milliseconds; docs/operations.md)',
    );
  const cap = YOUNG_GENERATION_CAP_MB[which];
  if (cap === undefined) return;
  const semiSpace = flagMbOf('max-semi-space-size', execArgv);
  if (semiSpace === null || semiSpace > cap)
    logger.warn(
      { semiSpaceMb: semiSpace, expectedMb: cap },
      `started without the young-generation cap: run \`${command}\` ` +
        '(otherwise large answers passed on make V8 collect the whole heap every second or two; docs/operations.md)',
    );
}
