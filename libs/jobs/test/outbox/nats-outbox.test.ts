// The outbox contract over a real nats-server that is stopped while events are recorded: the store write succeeds,
// the relay publishes once the server is back, and JetStream's duplicate window (msgID = event id) keeps a
// republished event from reaching a durable group twice.
import { afterAll, beforeAll } from '@jest/globals';
import { connectBus } from '@murmur/runtime';
import { testLogger, describeWithNats } from '@murmur/testing';
import { startRestartableNats, type RestartableNats } from '../../../bus-nats/test/restartable-nats.js';
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
