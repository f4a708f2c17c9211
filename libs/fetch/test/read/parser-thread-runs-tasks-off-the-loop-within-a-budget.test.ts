// ParserThread (libs/fetch/src/read/parser-thread.ts): a task module's functions run in a worker thread,
// one task at a time; the event loop of the caller keeps turning meanwhile; a task over its time budget
// is ended (ParseTimeoutError) and the next one runs on a new thread; a task's error, or a thread out of
// its heap, is a ParseFailedError; a full queue is ParseBusyError. The task module is built JavaScript
// (test/read/tasks.mjs here).
import { afterEach, describe, expect, it } from '@jest/globals';
import { ParseBusyError, ParseFailedError, ParserThread, ParseTimeoutError } from '../../src/index.js';

const TASKS = new URL('./tasks.mjs', import.meta.url);
const threads: ParserThread[] = [];
const thread = (options: Partial<ConstructorParameters<typeof ParserThread>[0]> = {}) => {
  const t = new ParserThread({ module: TASKS, timeoutMs: 5_000, ...options });
  threads.push(t);
  return t;
};

afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

describe('ParserThread', () => {
  it('runs a task on plain data and returns its result', async () => {
    expect(await thread().run('words', { text: 'one two  three' })).toEqual({ count: 3 });
  });

  it('the caller’s event loop turns while a task computes', async () => {
    // The task computes until a timer of the caller sets a shared flag: it can only see the flag if
    // the caller's event loop turned meanwhile. (Counting timer turns instead failed on a CI machine
    // so loaded that the caller got the CPU twice in 300 ms.)
    const t = thread();
    const flag = new SharedArrayBuffer(4);
    const running = t.run<{ sawFlag: boolean }>('spinUntilFlag', { flag, maxMs: 20_000 });
    const timer = setTimeout(() => Atomics.store(new Int32Array(flag), 0, 1), 50);
    try {
      expect(await running).toEqual({ sawFlag: true });
    } finally {
      clearTimeout(timer);
    }
  });

  it('a task over its budget fails with ParseTimeoutError; the next task runs on a new thread', async () => {
    const t = thread({ timeoutMs: 200 });
    await expect(t.run('spin', { ms: 60_000 })).rejects.toBeInstanceOf(ParseTimeoutError);
    expect(await t.run('words', { text: 'still here' })).toEqual({ count: 2 });
  });

  it('a task that throws fails with ParseFailedError carrying its message', async () => {
    await expect(thread().run('fail', { message: 'no h-entry' })).rejects.toEqual(
      new ParseFailedError('no h-entry'),
    );
  });

  it('a task that needs more memory than the thread has fails; the thread is replaced', async () => {
    const t = thread({ maxHeapMb: 32 });
    await expect(t.run('hog', {})).rejects.toBeInstanceOf(ParseFailedError);
    expect(await t.run('words', { text: 'a' })).toEqual({ count: 1 });
  }, 60_000);

  it('tasks wait their turn; beyond maxQueue waiting ones, ParseBusyError', async () => {
    const t = thread({ maxQueue: 2 });
    const running = t.run('spin', { ms: 200 });
    const waiting = [t.run('words', { text: 'a' }), t.run('words', { text: 'a b' })];
    await expect(t.run('words', { text: 'x' })).rejects.toBeInstanceOf(ParseBusyError);
    await running;
    expect(await Promise.all(waiting)).toEqual([{ count: 1 }, { count: 2 }]);
  });

  it('close() fails what waits and ends the thread', async () => {
    const t = thread();
    const failed = expect(t.run('spin', { ms: 60_000 })).rejects.toBeInstanceOf(ParseFailedError);
    await t.close();
    await failed;
    await expect(t.run('words', { text: 'a' })).rejects.toBeInstanceOf(ParseFailedError);
  });
});
