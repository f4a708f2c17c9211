// The store contract on MongoDB: MONGO_URL, or a container when Docker is there; skipped (and
// saying so) otherwise. Each test uses its own database and drops it afterwards.
import { randomBytes } from 'node:crypto';
import { MongoStore } from '../src/mongodb.js';
import { defineStoreContract } from '../../store/test/contract.js';
import { describeWithMongo, findMongo } from './mongo-server.js';

const mongo = await findMongo();

describeWithMongo(mongo, 'mongodb adapter', (url, target) => {
  defineStoreContract(
    () => {
      const database = `murmur_test_${randomBytes(6).toString('hex')}`;
      const open = () => MongoStore.connect(url, { service: 'contract', database });
      return {
        open,
        dispose: async () => {
          const store = await open();
          await store.dropDatabase();
          await store.close();
        },
      };
    },
    // The TTL monitor runs every 60 s. FerretDB lacks a few guarantees: their tests say so and are skipped.
    { persistent: true, ttlDeletedWithinMs: 130_000, engine: target.engine, lacks: target.lacks },
  );
});
