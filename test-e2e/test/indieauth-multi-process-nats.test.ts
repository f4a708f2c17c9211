// The IndieAuth code flow in the distributed mode: identity and the gateway as separate processes,
// talking over a real nats-server (token verification and revocation events travel over NATS).
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats } from '@murmur/testing';
import { runIndieAuthFlow } from '../support/indieauth-flow.js';
import { startMultiProcess, type MultiProcess } from '../support/multi-process.js';

describeWithNats('IndieAuth, multi-process over NATS', () => {
  let murmur: MultiProcess;
  beforeAll(async () => {
    murmur = await startMultiProcess();
  }, 60_000);
  afterAll(() => murmur?.stop());

  test('302-indieauth-code-flow: screen, emailed sign-in, approve, PKCE redemption, verify, revoke → 401', async () => {
    await runIndieAuthFlow(murmur);
  }, 60_000);
});
