#!/usr/bin/env node
// The single-process launcher (what `npm start` runs) for bench/gateway/run.mjs: configuration from
// the environment, one line of JSON on stdout once it listens ({ "ready": … }), stop on SIGTERM.
import { startSingleProcess } from '@murmur/cli';

const murmur = await startSingleProcess(process.env);
process.stdout.write(
  `${JSON.stringify({ ready: true, url: murmur.url, identity: murmur.serviceUrls.identity })}\n`,
);
process.once('SIGTERM', () => {
  void murmur.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
