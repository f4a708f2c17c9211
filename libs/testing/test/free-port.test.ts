// freePort (libs/testing/src/ports.ts) gives the ports that test files hand to the services
// they start: ports asked for before any of them is bound must all differ, and two jest workers must
// draw from ranges that do not meet, or a service finds its port taken (EADDRINUSE) now and then.
import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { freePort } from '../src/ports.js';

describe('freePort', () => {
  it('never gives the same port twice to ports asked for before any is bound', async () => {
    const ports: number[] = [];
    // 600 random picks among 12,000 ports would repeat one almost surely (1 − e^(−600²/24,000)).
    for (let i = 0; i < 600; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("stays in this jest worker's quarter of 20000–31999, below the kernel's ephemeral ports", async () => {
    const worker = Number(process.env.JEST_WORKER_ID);
    expect(worker).toBeGreaterThanOrEqual(1);
    const low = 20_000 + ((worker - 1) % 4) * 3_000;
    for (let i = 0; i < 50; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(low);
      expect(port).toBeLessThan(low + 3_000);
    }
  });

  it('skips a port that is in use', async () => {
    const first = await freePort();
    // The port after it in turn is taken: freePort must pass over it.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(first + 1, '127.0.0.1', resolve));
    try {
      const second = await freePort();
      expect(second).not.toBe(first + 1);
      await new Promise<void>((resolve, reject) => {
        const probe = createServer();
        probe.once('error', reject);
        probe.listen(second, '127.0.0.1', () => probe.close(() => resolve()));
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
