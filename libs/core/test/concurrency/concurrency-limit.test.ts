// ConcurrencyLimit: at most `max` tasks of a key run at once, waiters start in arrival order, keys are
// independent, and a failing task frees its slot.
import { describe, expect, it } from '@jest/globals';
import { ConcurrencyLimit } from '../../src/concurrency/index.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ConcurrencyLimit', () => {
  it('runs at most max tasks of a key at once, the rest in arrival order', async () => {
    const limit = new ConcurrencyLimit(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limit.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }, 'a.example'),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('counts each key on its own', async () => {
    const limit = new ConcurrencyLimit(1);
    const held = gate();
    const first = limit.run(() => held.opened, 'a.example');
    let otherRan = false;
    await limit.run(async () => {
      otherRan = true;
    }, 'b.example');
    expect(otherRan).toBe(true);
    held.open();
    await first;
  });

  it('frees the slot of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
  });
});
