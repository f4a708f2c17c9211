// Small async helpers and fresh message definitions for the bus contract suite.
import { z } from 'zod';
import { defineEvent, defineRequest } from '@murmur/contracts';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

let sequence = 0;
/** A subject word never used before in this process: NATS suites share one server and its streams across tests. */
export function fresh(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence}`;
}

export function freshRequest() {
  const entity = fresh('thing');
  return {
    get: defineRequest(
      'contract',
      entity,
      'get',
      z.object({ id: z.number().int(), note: z.string().optional() }),
      z.object({ id: z.number().int(), label: z.string() }),
    ),
    /** Same subject without any schema: sends what the strict definition would refuse. */
    unchecked: defineRequest('contract', entity, 'get', z.unknown(), z.unknown()),
  };
}

export function freshEvent() {
  const entity = fresh('post');
  return {
    published: defineEvent(
      'contract',
      entity,
      'published',
      z.object({ n: z.number().int(), note: z.string().optional() }),
    ),
    /** Same subject without any schema: publishes what subscribers of the strict definition must reject. */
    unchecked: defineEvent('contract', entity, 'published', z.unknown()),
  };
}
