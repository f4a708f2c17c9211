// Browser-based readers: OPTIONS /microsub → 204 with the CORS headers, and every JSON answer
// (successes and errors) carries Access-Control-Allow-Origin: *. Through the gateway and on the
// service itself.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

it('answers the preflight with 204 and the CORS headers', async () => {
  for (const base of [h.url, h.microsub.url]) {
    const res = await sendOverWire(base, {
      method: 'OPTIONS',
      url: '/microsub',
      headers: {
        origin: 'https://reader.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toMatch(/GET/);
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Cache-Control, Last-Event-ID',
    );
  }
});

it('sends Access-Control-Allow-Origin: * on successes and on errors', async () => {
  const answers = [
    await h.get({ action: 'channels' }, h.ann.token),
    await h.get({ action: 'timeline' }, h.ann.token),
    await h.post({ action: 'timeline', method: 'mark_read', entry: '1' }, h.ann.token),
    await h.get({ action: 'dance' }, h.ann.token),
    await h.get({ action: 'timeline', channel: 'nope' }, h.ann.token),
    await h.get({ action: 'channels' }),
  ];
  for (const res of answers) {
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  }
});
