// The NATS permissions of deploy/compose/nats.conf, enforced by a real nats-server: a service's user sets up the
// JetStream layout, publishes its own events, makes requests to other services and answers its own, and the server
// refuses it another service's events and another service's requests. Clients connect through connectBus with the
// credentials in BUS_URL, as the deployed services do.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { identity, reader, type EventEnvelope, type PublicUser } from '@murmur/contracts';
import { connect } from '@nats-io/transport-node';
import { BusNoResponderError, type Bus } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import { describeWithNats, freePort, natsServerBinary, testLogger } from '@murmur/testing';
import {
  COMPOSE_NATS,
  CLIENT_PORT,
  MONITOR_PORT,
  SERVICES,
  natsPasswordVar,
  renderNatsConfig,
} from '../src/access.js';

// nats-server reads a variable's value as a config value: a password starting with a digit would parse as a
// number, so passwords start with a letter (docs/operations.md says how to generate them).
const passwords = Object.fromEntries(SERVICES.map((s) => [s, `n${randomBytes(16).toString('hex')}`]));

const user: PublicUser = {
  id: 1,
  username: 'ada',
  email: 'ada@example.test',
  name: 'Ada',
  fullName: 'Ada Lovelace',
  avatar: '',
  bio: '',
  links: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};

interface Server {
  port: number;
  stop(): Promise<void>;
}

/** The compose configuration as committed, on free ports of 127.0.0.1, with its store in a temporary directory. */
async function startServer(): Promise<Server> {
  const [port, monitor] = [await freePort(), await freePort()];
  const dir = await mkdtemp(join(tmpdir(), 'murmur-nats-auth-'));
  const config = renderNatsConfig({ ...COMPOSE_NATS, storeDir: join(dir, 'js') })
    .replace(`port: ${CLIENT_PORT}`, `host: 127.0.0.1\nport: ${port}`)
    .replace(`http_port: ${MONITOR_PORT}`, `http_port: ${monitor}`);
  await writeFile(join(dir, 'nats.conf'), config);
  const env = {
    ...process.env,
    ...Object.fromEntries(SERVICES.map((s) => [natsPasswordVar(s), passwords[s]])),
  };
  const child: ChildProcess = spawn(natsServerBinary()!, ['-c', join(dir, 'nats.conf')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server did not start: ${output}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited: ${output}`));
    });
  });
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const busUrl = (service: string, port: number, password = passwords[service]) =>
  `nats://${service}:${password}@127.0.0.1:${port}`;

describeWithNats('NATS per-service users (deploy/compose/nats.conf on a real nats-server)', () => {
  let server: Server;
  let identityBus: Bus;
  let readerBus: Bus;
  const opened: Bus[] = [];
  const open = async (service: string) => {
    const bus = await connectBus(busUrl(service, server.port), { service, logger: testLogger() });
    opened.push(bus);
    return bus;
  };

  beforeAll(async () => {
    server = await startServer();
    identityBus = await open('identity');
    readerBus = await open('reader');
  });

  afterAll(async () => {
    for (const bus of opened) await bus.close().catch(() => undefined);
    await server?.stop();
  });

  it('refuses a wrong password and a URL without credentials', async () => {
    await expect(
      connectBus(busUrl('reader', server.port, 'wrong'), { service: 'reader', logger: testLogger() }),
    ).rejects.toThrow(/auth/i);
    await expect(
      connectBus(`nats://127.0.0.1:${server.port}`, { service: 'reader', logger: testLogger() }),
    ).rejects.toThrow(/auth/i);
  });

  it('lets a service publish its own event, which another service receives durably', async () => {
    const received: EventEnvelope<{ user: PublicUser }>[] = [];
    await readerBus.subscribe(identity.userCreated, { durable: 'reader-auth-test' }, async (event) => {
      received.push(event);
    });
    const sent = await identityBus.publish(identity.userCreated, { user });
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received.map((e) => e.id)).toEqual([sent.id]);
  });

  it('lets a service answer its own requests and make requests to another service', async () => {
    await identityBus.handle(identity.usersGet, async (query) => ({
      user: 'id' in query && query.id === user.id ? user : null,
    }));
    await readerBus.handle(reader.recapCapabilities, async () => ({ usingAi: false }));
    expect(await readerBus.request(identity.usersGet, { id: 1 })).toEqual({ user });
    expect(await identityBus.request(reader.recapCapabilities, {})).toEqual({ usingAi: false });
  });

  it('lets a service make requests to its own subjects: identity checks a token on one of its own routes', async () => {
    // identity's routes verify tokens as every service's do: a bus request to identity.token.verify
    // (@murmur/identity-client), here from one identity replica and answered by another.
    const answering = await open('identity');
    const asking = await open('identity');
    await answering.handle(identity.tokenVerify, async () => ({ active: false as const }));
    try {
      expect(await asking.request(identity.tokenVerify, { token: 'abc' }, { timeoutMs: 5_000 })).toEqual({
        active: false,
      });
    } finally {
      // Nobody answers identity.token.verify in the other tests.
      await answering.close();
    }
  });

  it("refuses a service publishing another service's event: nothing reaches the stream or listeners", async () => {
    const heard: string[] = [];
    await identityBus.listen(identity.userCreated, async (event) => {
      heard.push(event.id);
    });
    await expect(readerBus.publish(identity.userCreated, { user })).rejects.toThrow(/Permissions Violation/);
    // A legitimate publish after the refused one is heard alone.
    const legit = await identityBus.publish(identity.userCreated, { user });
    for (let i = 0; i < 100 && !heard.includes(legit.id); i++) await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual([legit.id]);
  });

  it("refuses a service subscribing to another service's requests", async () => {
    // What NatsBus.handle() does for identity's token checks, as the reader user: the server refuses the
    // subscription, and a request from another service finds no responder at all.
    const nc = await connect({
      servers: `127.0.0.1:${server.port}`,
      user: 'reader',
      pass: passwords.reader,
    });
    try {
      const refused = new Promise<Error | null>((resolve) => {
        nc.subscribe(identity.tokenVerify.subject, {
          queue: identity.tokenVerify.owner,
          callback: (err) => resolve(err),
        });
      });
      await nc.flush();
      expect(String(await refused)).toMatch(
        /Permissions Violation for Subscription to "identity\.token\.verify"/,
      );
      const publishingBus = await open('publishing');
      await expect(
        publishingBus.request(identity.tokenVerify, { token: 'x' }, { timeoutMs: 2000 }),
      ).rejects.toThrow(BusNoResponderError);
    } finally {
      await nc.close();
    }
  });
});
