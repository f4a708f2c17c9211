import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  FetchBlockedError,
  outboundPolicyFromConfig,
  safeFetch,
  type OutboundPolicy,
} from '../../src/fetch/index.js';
import { BASE_URL, LOOPBACK_ALLOWED, SMALL, fakeResolver, startServer, type TestServer } from './servers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => res.end(`hello ${req.url}`));
});
afterAll(() => server.close());

const fetchWith = (url: string, allow: OutboundPolicy, lookup = fakeResolver({})) =>
  safeFetch(url, { ...SMALL, allow, baseUrl: BASE_URL, lookup });

describe('the operator allow-list is the way to loopback and private targets', () => {
  it('an allow-listed address reaches the local server', async () => {
    const res = await fetchWith(`${server.origin}/feed`, LOOPBACK_ALLOWED);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello /feed');
    expect(res.url).toBe(`${server.origin}/feed`);
    expect(res.redirects).toEqual([]);
  });

  it('an allow-listed CIDR covers resolved names and literals', async () => {
    const policy = { allowPrivate: false, allowHosts: ['127.0.0.0/8'] };
    const lookup = fakeResolver({ 'feeds.test': ['127.0.0.1'] });
    expect((await fetchWith(`http://feeds.test:${server.port}/a`, policy, lookup)).body.toString()).toBe(
      'hello /a',
    );
    expect((await fetchWith(`${server.origin}/b`, policy)).body.toString()).toBe('hello /b');
  });

  it('an allow-listed host name is reached whatever it resolves to', async () => {
    const policy = { allowPrivate: false, allowHosts: ['llm.internal'] };
    const lookup = fakeResolver({ 'llm.internal.': ['127.0.0.1'], 'other.internal': ['127.0.0.1'] });
    expect((await fetchWith(`http://LLM.internal.:${server.port}/`, policy, lookup)).status).toBe(200);
    await expect(fetchWith(`http://other.internal:${server.port}/`, policy, lookup)).rejects.toBeInstanceOf(
      FetchBlockedError,
    );
  });

  it('an allow-listed IPv6 literal is reached', async () => {
    const v6 = await startServer((_req, res) => res.end('v6'), '::1');
    try {
      const res = await fetchWith(`${v6.origin}/`, { allowPrivate: false, allowHosts: ['[::1]'] });
      expect(res.body.toString()).toBe('v6');
    } finally {
      await v6.close();
    }
  });

  it('the allow-list opens only what it names', async () => {
    const policy = { allowPrivate: false, allowHosts: ['127.0.0.1', '10.0.0.0/8'] };
    await expect(fetchWith('http://192.168.0.1/', policy)).rejects.toBeInstanceOf(FetchBlockedError);
    await expect(fetchWith('http://[::1]/', policy)).rejects.toBeInstanceOf(FetchBlockedError);
    await expect(fetchWith('http://169.254.169.254/', policy)).rejects.toBeInstanceOf(FetchBlockedError);
  });

  it('allowPrivate opens every address (development and test setups)', async () => {
    const lookup = fakeResolver({ 'feeds.test': ['127.0.0.1'] });
    const res = await fetchWith(
      `http://feeds.test:${server.port}/x`,
      { allowPrivate: true, allowHosts: [] },
      lookup,
    );
    expect(res.body.toString()).toBe('hello /x');
  });
});

describe('outboundPolicyFromConfig', () => {
  it('takes the loaded configuration values', () => {
    expect(
      outboundPolicyFromConfig({
        OUTBOUND_ALLOW_PRIVATE: false,
        OUTBOUND_ALLOW_HOSTS: [' 127.0.0.1 ', '', 'llm.internal'],
      }),
    ).toEqual({ allowPrivate: false, allowHosts: ['127.0.0.1', 'llm.internal'] });
    expect(outboundPolicyFromConfig({})).toEqual({ allowPrivate: false, allowHosts: [] });
    expect(outboundPolicyFromConfig({ OUTBOUND_ALLOW_PRIVATE: true }).allowPrivate).toBe(true);
  });

  it.each(['10.0.0.0/33', 'not a host', 'http://x.example/'])('refuses the entry %s', (entry) => {
    expect(() => outboundPolicyFromConfig({ OUTBOUND_ALLOW_HOSTS: [entry] })).toThrow(entry);
  });

  it('a policy built from configuration reaches an allow-listed server', async () => {
    const policy = outboundPolicyFromConfig({
      OUTBOUND_ALLOW_PRIVATE: false,
      OUTBOUND_ALLOW_HOSTS: ['127.0.0.1/32'],
    });
    expect((await fetchWith(`${server.origin}/`, policy)).status).toBe(200);
  });
});
