// The outbox contract over a real nats-server that is stopped while events are recorded: the store write succeeds,
// the relay publishes once the server is back, and JetStream's duplicate window (msgID = event id) keeps a
// republished event from reaching a durable group twice.
import { afterAll, beforeAll } from '@jest/globals';
import { connectBus } from '../../src/bus/index.js';
import { testLogger } from '../../src/testing/logger.js';
import { describeWithNats } from '../../src/testing/nats-server.js';
import { startRestartableNats, type RestartableNats } from '../bus/restartable-nats.js';
import { defineOutboxContract } from './outbox-contract.js';

describeWithNats('outbox on NATS', () => {
  let nats: RestartableNats;
  beforeAll(async () => {
    nats = await startRestartableNats();
  });
  afterAll(async () => {
    await nats?.dispose();
  });
  defineOutboxContract(() => ({
    connect: (service) => connectBus(nats.url, { service, logger: testLogger() }),
    down: () => nats.stop(),
    up: () => nats.start(),
    recoveryMs: 30_000,
  }));
});
