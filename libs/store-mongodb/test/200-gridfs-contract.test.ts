// The blob contract on MongoDB GridFS: MONGO_URL, or a container when Docker is there; skipped (and saying
// so) otherwise, like the store's MongoDB run. Each test uses its own database and drops it afterwards.
import { randomBytes } from 'node:crypto';
import { GridFsBlobStore } from '../src/gridfs.js';
import { describeWithMongo, findMongo } from './mongo-server.js';
import { defineBlobContract } from '../../store/test/blob-contract.js';

const mongo = await findMongo();

describeWithMongo(mongo, 'gridfs blobs', (url) => {
  defineBlobContract(
    () => {
      const database = `murmur_test_${randomBytes(6).toString('hex')}`;
      const open = () => GridFsBlobStore.connect(url, { service: 'contract', database });
      return {
        open,
        dispose: async () => {
          const blobs = await open();
          await blobs.dropDatabase();
          await blobs.close();
        },
      };
    },
    { persistent: true },
  );
});
