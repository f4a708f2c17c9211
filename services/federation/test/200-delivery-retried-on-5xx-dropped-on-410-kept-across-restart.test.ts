// Deliveries are jobs: a 503 is retried with backoff until it is taken (and survives a restart of the
// process in between), a 410 drops the inbox without retrying, and a host that never answers holds up
// only its own delivery — another host gets the same activity at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';
import { startForeignServer, type ForeignServer } from './foreign-server.js';

let h: Harness;
let ada: string;
let other: ForeignServer;
let silent: Server;
const WAIT = 15_000;

async function follow(server: ForeignServer, name: string) {
  const actor = server.actorUrl(name);
  const res = await server.send(
    `${ada}/inbox`,
    { id: `${actor}#follows/1`, type: 'Follow', actor, object: ada },
    { name },
  );
  expect(res.status).toBe(202);
}

beforeAll(async () => {
  h = await startHarness();
  ada = `${h.url}/ap/users/ada`;
  other = await startForeignServer();
  await follow(h.foreign, 'alice');
  await eventually(async () => h.foreign.received.find((r) => r.activity.type === 'Accept'), WAIT);
  await follow(other, 'zoe');
  await eventually(async () => other.received.find((r) => r.activity.type === 'Accept'), WAIT);
});
afterAll(async () => {
  await h.stop();
  await other.close();
  silent?.close();
});

const creates = (server: ForeignServer, id: number) =>
  server.received.filter(
    (r) => r.activity.type === 'Create' && (r.activity.object as { id: string }).id.endsWith(`/notes/${id}`),
  );

test('503 is retried until the inbox takes it, across a restart of the service', async () => {
  h.foreign.inboxStatus = 503;
  await h.post('published', { id: 21, userId: ADA.id, revision: 1 });
  await eventually(async () => {
    const [job] = (await h.jobsOf('federation.activity.deliver')).filter(
      (j) =>
        JSON.stringify(j.payload).includes('/notes/21') && JSON.stringify(j.payload).includes(h.foreign.host),
    );
    return job && job.attempts >= 2 && job.status === 'queued' ? job : undefined;
  }, WAIT);
  expect(creates(h.foreign, 21)).toEqual([]);
  await h.restart();
  h.foreign.inboxStatus = 202;
  await eventually(async () => (creates(h.foreign, 21).length === 1 ? true : undefined), WAIT);
});

test('410 drops the inbox: no retry', async () => {
  h.foreign.inboxStatus = 410;
  await h.post('published', { id: 22, userId: ADA.id, revision: 1 });
  const job = await eventually(async () => {
    const [j] = (await h.jobsOf('federation.activity.deliver')).filter(
      (j) =>
        JSON.stringify(j.payload).includes('/notes/22') && JSON.stringify(j.payload).includes(h.foreign.host),
    );
    return j?.status === 'done' ? j : undefined;
  }, WAIT);
  expect(job.attempts).toBe(1);
  const [record] = await h.store
    .collection('deliveries')
    .find({ activityId: `${h.url}/ap/notes/22/activity`, host: h.foreign.host });
  expect(record).toMatchObject({ dropped: [`${h.foreign.origin}/inbox`], done: [], status: 'delivered' });
  h.foreign.inboxStatus = 202;
});

test('a host that never answers does not hold up another host', async () => {
  // A third follower whose server accepts connections and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as AddressInfo).port;
  await h.store.collection('actors').insertOne({
    _id: 2 ** 48 + 999,
    actorId: `http://127.0.0.1:${port}/users/sloth`,
    handle: `sloth@127.0.0.1:${port}`,
    name: 'Sloth',
    url: `http://127.0.0.1:${port}/users/sloth`,
    icon: '',
    inbox: `http://127.0.0.1:${port}/users/sloth/inbox`,
    keyId: `http://127.0.0.1:${port}/users/sloth#main-key`,
    publicKeyPem: 'unused',
    fetchedAt: new Date(),
  });
  await h.store.collection('followers').insertOne({
    _id: `${ADA.id} ${2 ** 48 + 999}`,
    userId: ADA.id,
    actor: 2 ** 48 + 999,
    followId: 'x',
    createdAt: new Date(),
  });
  const started = Date.now();
  await h.post('published', { id: 23, userId: ADA.id, revision: 1 });
  await eventually(
    async () => (creates(other, 23).length === 1 && creates(h.foreign, 23).length === 1 ? true : undefined),
    WAIT,
  );
  // Delivered while the silent host still holds its own request (its timeout is 15 s).
  expect(Date.now() - started).toBeLessThan(10_000);
});
