// The in-process hand-off's timeouts (src/deadlines.ts): one list per length of timeout, one timer per
// list. What a request sees of them is covered through the gateway (502-503-504-…test.ts: the 504, the
// cut body, a long body in timely parts); this holds the list's own order under refresh and cancel.
import { describe, expect, it } from '@jest/globals';
import { Deadline, DeadlineList } from '../src/deadlines.js';

class Named extends Deadline {
  constructor(
    readonly name: string,
    private readonly fell: string[],
  ) {
    super();
  }

  expire(): void {
    this.fell.push(this.name);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` or two seconds (a loaded machine may run timers late; never early). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 2000; waited += 10) await sleep(10);
}

describe('a list of deadlines of one length', () => {
  it('lets them fall due in the order they were set, and only once', async () => {
    const fell: string[] = [];
    const list = new DeadlineList(30);
    for (const name of ['a', 'b', 'c']) {
      list.add(new Named(name, fell));
      await sleep(5);
    }
    await until(() => fell.length === 3);
    await sleep(50);
    expect(fell).toEqual(['a', 'b', 'c']);
  });

  it('starts a refreshed deadline again: it falls due after those set before the refresh', async () => {
    const fell: string[] = [];
    const list = new DeadlineList(60);
    const a = new Named('a', fell);
    list.add(a);
    await sleep(5);
    list.add(new Named('b', fell));
    await sleep(5);
    a.refresh();
    await until(() => fell.length === 2);
    expect(fell).toEqual(['b', 'a']);
  });

  it('never lets a cancelled deadline fall due, and still times the next when the first is cancelled', async () => {
    const fell: string[] = [];
    const list = new DeadlineList(30);
    const a = new Named('a', fell);
    const b = new Named('b', fell);
    list.add(a);
    await sleep(5);
    list.add(b);
    list.add(new Named('c', fell));
    // The list's timer was armed for a: it fires for nothing, then again for c.
    a.cancel();
    b.cancel();
    await until(() => fell.length === 1);
    await sleep(60);
    expect(fell).toEqual(['c']);
    // Cancelling or refreshing one that has fallen due or left changes nothing.
    b.cancel();
    b.refresh();
    await sleep(60);
    expect(fell).toEqual(['c']);
  });

  it('refuses a length that is not positive', () => {
    expect(() => new DeadlineList(0)).toThrow(/positive/);
    expect(() => new DeadlineList(Number.NaN)).toThrow(/positive/);
  });
});
