// The worker thread of ParserThread (parser-thread.ts): imports the task module named in workerData and
// runs the tasks its parent posts, one at a time, answering each with its result or its error message.
import { parentPort, workerData } from 'node:worker_threads';

type TaskModule = Record<string, (input: unknown) => unknown>;

const tasks = (await import((workerData as { module: string }).module)) as TaskModule;
parentPort!.postMessage({ ready: true });

parentPort!.on('message', (message: { id: number; task: string; input: unknown }) => {
  void (async () => {
    try {
      const run = tasks[message.task];
      if (typeof run !== 'function') throw new Error(`no task named ${message.task}`);
      // As JSON text: the caller gets objects of its own realm (structured clone would make them in the
      // thread's parent's main realm, which is not the realm of code run in a vm context, as tests are).
      const result = JSON.stringify((await run(message.input)) ?? null);
      parentPort!.postMessage({ id: message.id, ok: true, result });
    } catch (err) {
      parentPort!.postMessage({
        id: message.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  })();
});
