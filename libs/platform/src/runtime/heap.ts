// The heap floor: the processes that pass large bodies through sockets are started with
// `node --initial-old-space-size=<MB>`, below which V8 does not run full (mark-compact) collections.
//
// Why (bench/README.md, "2026-11-25: the heap floor"; docs/adr/0016-in-process-dispatch-and-gateway-cost.md):
// every socket read allocates a fresh buffer outside the JavaScript heap, and V8 counts such memory
// allocated since its last full collection against the old generation's allowance. The gateway's
// heap is small (about 23 MB live), so V8 gives it an allowance of only about 10 MB above that; the
// read buffers of 145 KB reader pages passing through fill it between two young collections, and V8
// then ran a full collection every 150–300 ms that freed nothing, with pauses of 2–10 ms — the whole
// of the gateway's added p99 on that page. With a 64 MB floor it ran one in the same run. The single
// process (about 50 MB live) gets 128 MB: its gateway path went from 82–85 to 85–88 % of the identity
// service's own throughput with it, while the identity service alone gained nothing from one.
//
// The flag cannot be set from NODE_OPTIONS (V8 flags there are limited to a short list) nor from
// code once V8 has started, so it is on the launch commands: `npm start`, the Dockerfile, compose and
// the Kubernetes manifests. An entry started without it logs a warning naming the flag.
import type { Logger } from 'pino';

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

/** The floor a process was started with, in MB (V8 accepts `-` or `_` in the name), or null. */
function heapFloorOf(execArgv: readonly string[] = process.execArgv): number | null {
  let found: number | null = null;
  for (const arg of execArgv) {
    const m = /^--initial[-_]old[-_]space[-_]size=(\d+)$/.exec(arg);
    if (m) found = Number(m[1]);
  }
  return found;
}

/** Logs a warning when this process was started without at least `which`'s floor, naming the command that sets it. */
export function warnWithoutHeapFloor(
  logger: Pick<Logger, 'warn'>,
  which: HeapFloorProcess,
  entry: string,
  execArgv: readonly string[] = process.execArgv,
): void {
  const floor = heapFloorOf(execArgv);
  if (floor !== null && floor >= HEAP_FLOOR_MB[which]) return;
  logger.warn(
    { heapFloorMb: floor, expectedMb: HEAP_FLOOR_MB[which] },
    `started without the heap floor: run \`node ${heapFloorFlag(which)} ${entry}\` ` +
      '(otherwise large answers make V8 collect the whole heap every few hundred milliseconds; docs/operations.md)',
  );
}
