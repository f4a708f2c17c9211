// A second process on an embedded store directory, for the durability tests:
//   store-child.ts <dir> hold    opens the store, prints `ready <pid>`, then waits to be killed;
//   store-child.ts <dir> write   prints `ready <pid>`, then inserts documents four at a time for ever,
//                                printing `ack <id>` once each insert has resolved.
import { EmbeddedStore } from '../../src/embedded.js';

const [dir, mode] = process.argv.slice(2) as [string, string];
const store = await EmbeddedStore.open({ service: 'child', location: { kind: 'file', dir } });
const docs = store.collection('docs');
await docs.createIndex({ n: 1 });
process.stdout.write(`ready ${process.pid}\n`);
if (mode === 'write') {
  let next = 0;
  const writer = async () => {
    for (;;) {
      const n = next++;
      await docs.insertOne({ _id: `d${n}`, n, body: 'x'.repeat(100) });
      process.stdout.write(`ack d${n}\n`);
    }
  };
  await Promise.all([writer(), writer(), writer(), writer()]);
} else {
  setInterval(() => undefined, 60_000);
}
