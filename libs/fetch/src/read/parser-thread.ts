// A worker thread for the parses that must build a whole document tree — microformats (webmention
// sources, IndieAuth client pages) and Readability over a DOM (article extraction) — which no slicing
// can bound: a megabyte of small h-entries costs microformats-parser seconds of CPU (issue 37). The
// parse runs off the event loop with a time budget (over it, the thread is ended and the task fails
// with ParseTimeoutError) and a heap of its own (a document that needs more fails with
// ParseFailedError, the process lives on). Pure functions only: a task gets plain data (structured
// clone) and returns JSON data (undefined members are dropped), and touches no store, bus or socket.
//
// A task module is a module whose exports are the tasks: `export function parseMention(input) {…}`.
// The thread imports it by URL, so it must be JavaScript: services name the built file
// (taskModuleUrl), which `npm test` and `npm run build` produce before anything runs.
import { Worker } from 'node:worker_threads';

export class ParseError extends Error {
  override name = 'ParseError';
}

/** The task took longer than its budget; the thread was ended. */
export class ParseTimeoutError extends ParseError {
  override name = 'ParseTimeoutError';
}

/** The task threw, or the thread died under it (out of its heap). */
export class ParseFailedError extends ParseError {
  override name = 'ParseFailedError';
}

/** More tasks are waiting than the thread takes: try again later. */
export class ParseBusyError extends ParseError {
  override name = 'ParseBusyError';
}

export interface ParserThreadOptions {
  /** The task module (built JavaScript): see taskModuleUrl. */
  module: URL;
  /** Time one task may run (not counting its wait in the queue). */
  timeoutMs: number;
  /** Old-generation heap of the thread, MB (default 256). */
  maxHeapMb?: number;
  /**
   * Young-generation heap of the thread, MB (default: V8's). A thread that parses many small
   * documents keeps less resident with a small one (the reader's: 8).
   */
  maxYoungMb?: number;
  /** Tasks waiting for the thread at most (default 64); more → ParseBusyError. */
  maxQueue?: number;
  /**
   * An idle thread ends after this (default 5 minutes), giving its memory back; the next task starts
   * another, which costs it the thread's start (loading the task module: a few hundred ms of an idle
   * machine, on the new thread, not counted in the task's budget).
   */
  idleMs?: number;
}

interface Task {
  id: number;
  task: string;
  input: unknown;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

type RunningTask = Task & { timer: NodeJS.Timeout | undefined };

interface Thread {
  worker: Worker;
  /** Resolves once the thread has loaded the task module. */
  ready: Promise<void>;
}

/** A task's answer: its result as JSON text, or its error's message. */
type Reply = { id: number; ok: true; result: string } | { id: number; ok: false; message: string };

/** Time a new thread may take to load its task module. */
const LOAD_TIMEOUT_MS = 30_000;

/**
 * The URL of a service's built task module: `path` is the module's path under the package's `src/`
 * (e.g. `domain/parse-tasks.js`), `from` the caller's `import.meta.url`, `depth` how many folders
 * below `src/` (or `dist/`) the caller is. Resolves to `dist/` whether the caller runs from `src/`
 * (tests compile TypeScript on the fly; the thread cannot) or from `dist/` (a built service).
 */
export function taskModuleUrl(from: string, depth: number, path: string): URL {
  return new URL(`${'../'.repeat(depth + 1)}dist/${path}`, from);
}

/** The thread's entry, built beside this file (dist/read/parser-thread-entry.js). */
const ENTRY = taskModuleUrl(import.meta.url, 1, 'read/parser-thread-entry.js');

/** One worker thread running one task at a time, tasks in order of arrival. */
export class ParserThread {
  private current: Thread | undefined;
  private running: RunningTask | undefined;
  private readonly queue: Task[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ParserThreadOptions) {}

  /** Runs `task` of the module on `input` off the event loop. */
  run<T>(task: string, input: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new ParseFailedError('the parser thread is closed'));
    if (this.queue.length >= (this.options.maxQueue ?? 64))
      return Promise.reject(new ParseBusyError('too many documents waiting to be parsed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, input, resolve: resolve as (v: unknown) => void, reject });
      this.next();
    });
  }

  /** Ends the thread; waiting tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const t of this.queue.splice(0)) t.reject(new ParseFailedError('the parser thread was closed'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.reject(new ParseFailedError('the parser thread was closed'));
      this.running = undefined;
    }
    const worker = this.current?.worker;
    this.current = undefined;
    if (worker) await worker.terminate();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const task = this.queue.shift();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (!task) {
      this.idleTimer = setTimeout(() => this.endThread(), this.options.idleMs ?? 5 * 60_000);
      this.idleTimer.unref();
      return;
    }
    const { worker, ready } = this.thread();
    const running: RunningTask = { ...task, timer: undefined };
    this.running = running;
    worker.postMessage({ id: task.id, task: task.task, input: task.input });
    // The budget is the task's own: it starts once the thread has loaded its module.
    void ready.then(() => {
      if (this.running !== running) return;
      running.timer = setTimeout(() => {
        this.fail(new ParseTimeoutError(`parsing took longer than ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
    });
  }

  private thread(): Thread {
    if (this.current) return this.current;
    const worker = new Worker(ENTRY, {
      workerData: { module: this.options.module.href },
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxHeapMb ?? 256,
        ...(this.options.maxYoungMb === undefined
          ? {}
          : { maxYoungGenerationSizeMb: this.options.maxYoungMb }),
      },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    let started: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (started = resolve));
    // A thread that cannot load its module (a missing build) says so rather than leaving tasks waiting.
    const loading = setTimeout(() => {
      if (this.current?.worker === worker) this.fail(new ParseFailedError('the parser thread did not start'));
    }, LOAD_TIMEOUT_MS);
    loading.unref();
    worker.on('message', (reply: Reply | { ready: true }) => {
      if ('ready' in reply) {
        clearTimeout(loading);
        started();
        return;
      }
      const running = this.running;
      if (!running || reply.id !== running.id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if (reply.ok) running.resolve(JSON.parse(reply.result));
      else running.reject(new ParseFailedError(reply.message));
      this.next();
    });
    worker.on('error', (err) => {
      clearTimeout(loading);
      if (this.current?.worker === worker)
        this.fail(new ParseFailedError(`the parser thread failed: ${err.message}`));
    });
    worker.on('exit', () => {
      clearTimeout(loading);
      if (this.current?.worker === worker) this.fail(new ParseFailedError('the parser thread stopped'));
    });
    this.current = { worker, ready };
    return this.current;
  }

  /** The running task fails with `err`; the thread is ended (it may still be busy) and the next task starts a new one. */
  private fail(err: ParseError): void {
    const running = this.running;
    this.running = undefined;
    this.endThread();
    if (running) {
      clearTimeout(running.timer);
      running.reject(err);
    }
    this.next();
  }

  private endThread(): void {
    const worker = this.current?.worker;
    this.current = undefined;
    if (worker) void worker.terminate();
  }
}
