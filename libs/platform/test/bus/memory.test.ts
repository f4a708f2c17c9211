// The bus contract on the in-process broker; every test gets a broker of its own.
import { beforeEach, describe } from '@jest/globals';
import { connectBus } from '../../src/bus/index.js';
import { testLogger } from '../../src/testing/logger.js';
import { defineBusContract } from './contract.js';

describe('memory adapter', () => {
  let broker = 0;
  beforeEach(() => {
    broker += 1;
  });
  defineBusContract((service) => connectBus(`memory:contract-${broker}`, { service, logger: testLogger() }));
});
