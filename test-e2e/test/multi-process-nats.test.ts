// Mode 2: each service its own process with its own embedded store in a temp dir, talking over a real
// nats-server; the gateway in a separate process in front. The same flow as the single-process test.
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats } from '@murmur/testing';
import { runAccountFlow } from '../support/flow.js';
import { startMultiProcess, type MultiProcess } from '../support/multi-process.js';

// Skipped with a visible title when nats-server is missing; a failure instead under REQUIRE_NATS=1 (CI).
describeWithNats('multi-process over NATS', () => {
  let murmur: MultiProcess;
  beforeAll(async () => {
    murmur = await startMultiProcess();
  }, 60_000);
  afterAll(() => murmur?.stop());

  test('200-account-flow: create, sign in by email, verify, call, revoke → 401', async () => {
    await runAccountFlow(murmur);
  }, 60_000);
});
