#!/usr/bin/env node
// The single-process launcher (what `npm start` runs) for bench/gateway/run.mjs: configuration from
// the environment, one line of JSON on stdout (or BENCH_READY_FD) once it listens ({ "ready": … }), stop on SIGTERM.
import { writeSync } from 'node:fs';
import { startSingleProcess } from '@murmur/cli';

const murmur = await startSingleProcess(process.env);
const ready = `${JSON.stringify({ ready: true, url: murmur.url, identity: murmur.serviceUrls.identity })}\n`;
// On the descriptor BENCH_READY_FD names when given (single.mjs: its stdout, the logs, goes elsewhere).
if (process.env.BENCH_READY_FD) writeSync(Number(process.env.BENCH_READY_FD), ready);
else process.stdout.write(ready);
process.once('SIGTERM', () => {
  void murmur.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
