// The job queue on MongoDB (MONGO_URL, or a container when Docker is there; skipped and saying so
// otherwise). Each "worker" has its own client; each test its own database, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { MongoStore } from '@murmur/store-mongodb';
import { describeWithMongo, findMongo } from '../../../store-mongodb/test/mongo-server.js';
import { defineJobQueueTests } from './job-queue-contract.js';

const mongo = await findMongo();

describeWithMongo(mongo, 'job queue on mongodb', (url) => {
  defineJobQueueTests(() => {
    const database = `murmur_test_${randomBytes(6).toString('hex')}`;
    const connect = () => MongoStore.connect(url, { service: 'jobs', database });
    return {
      connect,
      dispose: async () => {
        const store = await connect();
        await store.dropDatabase();
        await store.close();
      },
    };
  });
});
