// The gateway closes an idle connection to a service well before the service's own keep-alive deadline
// (http-lane.ts, SERVICE_IDLE_CONNECTION_MS): the service, which advertises `Keep-Alive: timeout=72`,
// sees the gateway end the connection and never has to close it itself.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { SERVICE_IDLE_CONNECTION_MS, servicePool } from '../src/http-lane.js';

interface Service {
  url: string;
  server: Server;
  /** For each connection: who ended it ('gateway' when the peer's FIN came first, else 'service'). */
  endings: Array<'gateway' | 'service' | 'open'>;
}

async function startService(): Promise<Service> {
  const endings: Service['endings'] = [];
  // As a Murmur service's server is set up (libs/http/src/app.ts): idle keep-alive for 72 s.
  const server = createServer({ keepAliveTimeout: 72_000 }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  server.on('connection', (socket: Socket) => {
    const index = endings.push('open') - 1;
    socket.once('end', () => {
      if (endings[index] === 'open') endings[index] = 'gateway';
    });
    const destroy = socket.destroy.bind(socket);
    socket.destroy = (error?: Error) => {
      if (endings[index] === 'open') endings[index] = 'service';
      return destroy(error);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server, endings };
}

const waitFor = async (condition: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};

describe("the gateway's connections to a service", () => {
  let service: Service | undefined;
  afterEach(async () => {
    service?.server.closeAllConnections();
    await new Promise((resolve) => service?.server.close(resolve));
  });

  it('are closed by the gateway when idle, long before the service’s keep-alive deadline', async () => {
    expect(SERVICE_IDLE_CONNECTION_MS).toBeLessThanOrEqual(30_000);
    service = await startService();
    // The same pool as deployed, with a shorter idle limit so the test need not wait 20 s.
    const pool = servicePool(service.url, { idleMs: 1_000 });
    try {
      const first = await pool.request({ path: '/', method: 'GET' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['keep-alive']).toBe('timeout=72');
      await first.body.text();
      expect(service.endings).toEqual(['open']);

      // undici checks idle connections on a coarse timer (about a second).
      await waitFor(() => service!.endings[0] !== 'open', 5_000);
      expect(service.endings).toEqual(['gateway']);

      // The next request opens a new connection and is answered.
      const second = await pool.request({ path: '/', method: 'GET' });
      expect(second.statusCode).toBe(200);
      expect(await second.body.json()).toEqual({ ok: true });
      expect(service.endings).toEqual(['gateway', 'open']);
    } finally {
      await pool.close();
    }
  });

  it('stay open between requests that come more often than the idle limit', async () => {
    service = await startService();
    const pool = servicePool(service.url, { idleMs: 3_000 });
    try {
      for (let i = 0; i < 4; i++) {
        const res = await pool.request({ path: '/', method: 'GET' });
        await res.body.text();
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(service.endings).toEqual(['open']);
    } finally {
      await pool.close();
    }
  });
});
