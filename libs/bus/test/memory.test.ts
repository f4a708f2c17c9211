// The bus contract on the in-process broker; every test gets a broker of its own.
import { beforeEach, describe } from '@jest/globals';
import { connectBus } from '@murmur/runtime';
import { testLogger } from '@murmur/testing';
import { defineBusContract } from './contract.js';

describe('memory adapter', () => {
  let broker = 0;
  beforeEach(() => {
    broker += 1;
  });
  defineBusContract((service) => connectBus(`memory:contract-${broker}`, { service, logger: testLogger() }));
});
