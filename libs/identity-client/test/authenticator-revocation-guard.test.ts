// An answer identity gave before a revocation must not outlive it: when the revocation arrives while
// the question is in flight, the answer is neither believed nor cached — for Bearer and Basic alike.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { identity } from '@murmur/contracts';
import { connectBus, openStore } from '@murmur/runtime';
import type { Bus } from '@murmur/bus';
import { Authenticator } from '@murmur/http';
import { identityVerifier } from '../src/identity-verifier.js';
import { sha256Hex } from '@murmur/core';
import type { Store } from '@murmur/store';
import { eventually, testLogger } from '@murmur/testing';

let identityBus: Bus;
let serviceBus: Bus;
let store: Store;
let authenticator: Authenticator;
let gate: Promise<void> | undefined;
let asked = 0;
let revoked = false;

beforeEach(async () => {
  const url = `memory:guard-${randomUUID()}`;
  identityBus = await connectBus(url, { service: 'identity', logger: testLogger() });
  serviceBus = await connectBus(url, { service: 'reader', logger: testLogger() });
  store = await openStore('memory:', { service: 'reader' });
  asked = 0;
  revoked = false;
  gate = undefined;
  // Identity looks the token up at once (active) but its answer is delayed until `gate` opens.
  await identityBus.handle(identity.tokenVerify, async ({ token }) => {
    asked++;
    const active = !revoked;
    await gate;
    return active
      ? {
          active: true as const,
          userId: 5,
          username: 'eve',
          kind: 'app' as const,
          scopes: [],
          clientId: '',
          tokenHash: sha256Hex(token),
        }
      : { active: false as const };
  });
  await identityBus.handle(identity.credentialsVerify, async () => {
    asked++;
    const ok = !revoked;
    await gate;
    return ok ? { ok: true as const, userId: 5, username: 'eve' } : { ok: false as const };
  });
  authenticator = new Authenticator(identityVerifier(serviceBus, testLogger()), { store });
  await authenticator.listen();
});

afterEach(async () => {
  await authenticator.close();
  await serviceBus.close();
  await identityBus.close();
  await store.close();
});

async function revokeWhileInFlight(question: () => Promise<unknown>, token: string): Promise<unknown> {
  let open!: () => void;
  gate = new Promise<void>((resolve) => (open = resolve));
  const pending = question();
  await eventually(() => (asked > 0 ? true : undefined), 2000, 5);
  revoked = true;
  await identityBus.publish(identity.tokenRevoked, { tokenHash: sha256Hex(token), userId: 5 });
  // The listener runs on the bus's schedule: give it the time to see the event before answering.
  await new Promise((r) => setTimeout(r, 100));
  open();
  return pending;
}

const headers = { 'x-request-id': 'guard' };

describe('revocation while identity is answering', () => {
  it('Bearer: the late positive answer is refused and not cached', async () => {
    const answer = await revokeWhileInFlight(() => authenticator.verifyToken('tok-1', headers), 'tok-1');
    expect(answer).toBeNull();
    expect(await authenticator.verifyToken('tok-1', headers)).toBeNull();
    expect(asked).toBe(2);
  });

  it('Basic: the late positive answer is refused and not cached', async () => {
    const ctx = { ip: '192.0.2.1', headers };
    const answer = await revokeWhileInFlight(
      () => authenticator.verifyCredentials('eve', 'tok-2', ctx),
      'tok-2',
    );
    expect(answer).toBeNull();
    expect(await authenticator.verifyCredentials('eve', 'tok-2', ctx)).toBeNull();
    expect(asked).toBe(2);
  });

  it('without a revocation the answer is cached (the guard is what refused it above)', async () => {
    const ctx = { ip: '192.0.2.1', headers };
    expect(await authenticator.verifyCredentials('eve', 'tok-3', ctx)).toMatchObject({ userId: 5 });
    expect(await authenticator.verifyCredentials('EVE', 'tok-3', ctx)).toMatchObject({ userId: 5 });
    expect(await authenticator.verifyToken('tok-3', headers)).toMatchObject({ userId: 5 });
    expect(await authenticator.verifyToken('tok-3', headers)).toMatchObject({ userId: 5 });
    expect(asked).toBe(2);
  });

  it('concurrent questions about one token share one request to identity', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => authenticator.verifyToken('tok-4', headers)));
    expect(answers.every((a) => a?.userId === 5)).toBe(true);
    expect(asked).toBe(1);
  });
});
