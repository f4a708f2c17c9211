// Every synchronous refusal of POST /webmention is a 400 text/plain one-line reason, in the order of
// the checks, and queues nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { ADA_POST, startHarness, withSites, type Harness } from './harness.js';

describe('POST /webmention refused', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ runJobs: false, gateway: true });
    await withSites(h);
  });
  afterAll(() => h.stop());

  const post = (params: Record<string, string>) =>
    sendOverWire(h.url, {
      method: 'POST',
      url: '/webmention',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });

  async function expect400(params: Record<string, string>, reason: string | RegExp) {
    const res = await post(params);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    if (typeof reason === 'string') expect(res.body).toBe(reason);
    else expect(res.body).toMatch(reason);
    expect(res.body).not.toContain('\n');
  }

  it('missing source or target', async () => {
    await expect400({ target: ADA_POST }, 'source is required');
    await expect400({ source: 'https://carol.example/r' }, 'target is required');
    await expect400({}, 'source is required');
  });

  it('non-URL source, non-URL target, both non-URL', async () => {
    await expect400(
      { source: 'jwoijgoisdjlskjegisvjowuehjtkx', target: ADA_POST },
      'source is not a valid URL',
    );
    await expect400(
      { source: 'https://carol.example/r', target: 'jwoijgoisdjlskjegisvjowuehjtkx' },
      'target is not a valid URL',
    );
    await expect400(
      { source: 'jwoijgoisdjlskjegisvjowuehjtkx', target: 'sdfsdfsdf' },
      'source is not a valid URL',
    );
  });

  it('ftp:// source, a loopback, private or link-local literal source, an over-long URL', async () => {
    await expect400(
      { source: 'ftp://carol.example/r', target: ADA_POST },
      'source must be an http or https URL',
    );
    for (const source of [
      'http://127.0.0.1/x',
      'http://127.0.0.2/x',
      'http://[::1]/x',
      'http://10.1.2.3/',
      'http://169.254.169.254/',
      'http://0.0.0.0/',
      'http://2130706433/',
    ]) {
      await expect400(
        { source, target: ADA_POST },
        'source must not be a loopback, private or link-local address',
      );
    }
    await expect400(
      { source: `https://carol.example/${'a'.repeat(2100)}`, target: ADA_POST },
      /source is longer than 2048/,
    );
  });

  it('source equal to target (fragments ignored)', async () => {
    await expect400(
      { source: ADA_POST, target: `${ADA_POST}#x` },
      'source and target must be different URLs',
    );
  });

  it('a target on an unknown host', async () => {
    await expect400(
      { source: 'https://carol.example/r', target: 'https://unknown.example/x' },
      'target is not a resource of this service',
    );
  });

  it('a JSON array for source or target (a JSON body has one value per name)', async () => {
    for (const [name, body] of [
      ['source', { source: ['https://carol.example/r'], target: ADA_POST }],
      ['target', { source: 'https://carol.example/r', target: [ADA_POST] }],
    ] as const) {
      const res = await sendOverWire(h.url, {
        method: 'POST',
        url: '/webmention',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(`${name} must be a string`);
    }
  });

  it('nothing was queued', async () => {
    expect(await h.jobsOf('webmention.mention.verify')).toHaveLength(0);
  });

  it('another body type is 415; a body over 16 KiB is 413', async () => {
    const xml = await sendOverWire(h.url, {
      method: 'POST',
      url: '/webmention',
      headers: { 'content-type': 'text/xml' },
      payload: '<x/>',
    });
    expect(xml.statusCode).toBe(415);
    const big = await post({
      source: 'https://carol.example/r',
      target: ADA_POST,
      pad: 'x'.repeat(17 * 1024),
    });
    expect(big.statusCode).toBe(413);
  });
});
