// The job queue on the embedded store: each test gets its own named in-memory database, which every
// connection (every "worker") opened on it shares.
import { describe } from '@jest/globals';
import { openStore } from '@murmur/runtime';
import { defineJobQueueTests } from './job-queue-contract.js';

let n = 0;

describe('job queue on the embedded store', () => {
  defineJobQueueTests(() => {
    const url = `memory:jobs-${process.pid}-${++n}`;
    return { connect: () => openStore(url, { service: 'jobs' }), dispose: async () => undefined };
  });
});
