// A task module for parser-thread-runs-tasks-off-the-loop-within-a-budget.test.ts: plain functions of plain data.
export function words({ text }) {
  return { count: text.split(/\s+/).filter(Boolean).length };
}

export function spin({ ms }) {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) x++;
  return { x };
}

/** Computes until the caller sets `flag[0]` (a SharedArrayBuffer) or `maxMs` passes; says which. */
export function spinUntilFlag({ flag, maxMs }) {
  const cells = new Int32Array(flag);
  const end = Date.now() + maxMs;
  while (Date.now() < end) if (Atomics.load(cells, 0) === 1) return { sawFlag: true };
  return { sawFlag: false };
}

export function fail({ message }) {
  throw new Error(message);
}

export function hog() {
  const kept = [];
  for (;;) kept.push(new Array(100_000).fill(kept.length));
}
