import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FetchBlockedError, assertFetchableUrl, safeFetch } from '../../src/fetch/index.js';
import { BASE_URL, SMALL, STRICT, fakeResolver, startServer, type TestServer } from './servers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('reached'));
});
afterAll(() => server.close());

const strictFetch = (url: string, lookup = fakeResolver({})) =>
  safeFetch(url, { ...SMALL, allow: STRICT, baseUrl: BASE_URL, lookup });

describe('IP literals are refused before anything connects', () => {
  it.each([
    'http://127.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://0/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[ff02::1]/',
    'http://[::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001::1]/',
    'http://[64:ff9b::7f00:1]/',
    'https://[::ffff:a9fe:a9fe]/',
  ])('%s', async (url) => {
    const lookup = fakeResolver({});
    await expect(strictFetch(url, lookup)).rejects.toBeInstanceOf(FetchBlockedError);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('a loopback server on the literal address sees no connection', async () => {
    await expect(strictFetch(`http://127.0.0.1:${server.port}/`)).rejects.toThrow(
      /not a public address \(loopback\)/,
    );
    await expect(strictFetch(`http://[::ffff:127.0.0.1]:${server.port}/`)).rejects.toBeInstanceOf(
      FetchBlockedError,
    );
    expect(server.connections()).toBe(0);
  });

  it('public literals pass the same check', () => {
    expect(assertFetchableUrl('http://93.184.216.34/feed', STRICT).hostname).toBe('93.184.216.34');
    expect(assertFetchableUrl('https://[2606:4700::1]/', STRICT).hostname).toBe('[2606:4700::1]');
    expect(assertFetchableUrl('http://[::ffff:8.8.8.8]/', STRICT).hostname).toBe('[::ffff:808:808]');
  });
});

describe('URL shape', () => {
  it.each([
    ['ftp://example.com/feed.xml', /scheme ftp:/],
    ['file:///etc/passwd', /scheme file:/],
    ['javascript:alert(1)', /scheme javascript:/],
    ['http://user:pw@example.com/', /credentials/],
    ['http://user@example.com/', /credentials/],
    ['http://example.com:25/', /port 25/],
    ['http://example.com:22/', /port 22/],
    ['https://example.com:1023/', /port 1023/],
    ['/relative/path', /not an absolute URL/],
  ])('%s is refused', async (url, reason) => {
    const lookup = fakeResolver({ 'example.com': ['93.184.216.34'] });
    const err = await strictFetch(url, lookup).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchBlockedError);
    expect((err as FetchBlockedError).reason).toMatch(reason);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('a URL longer than 2048 characters is refused', async () => {
    const url = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
    await expect(strictFetch(url)).rejects.toThrow(/longer than 2048 characters/);
  });

  it('port 25 is refused even when private targets are allowed', async () => {
    const open = { ...SMALL, allow: { allowPrivate: true, allowHosts: [] }, baseUrl: BASE_URL };
    await expect(safeFetch('http://127.0.0.1:25/', open)).rejects.toThrow(/port 25 is not allowed/);
  });

  it('ports 80, 443 and 1024–65535 are accepted', () => {
    for (const url of [
      'http://example.com:80/',
      'https://example.com:443/',
      'http://example.com:1024/',
      'http://example.com:65535/',
    ]) {
      expect(() => assertFetchableUrl(url, STRICT)).not.toThrow();
    }
    const exactly2048 = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(() => assertFetchableUrl(exactly2048, STRICT)).not.toThrow();
  });
});

describe('host names are checked at connect time against every address', () => {
  it('a name resolving to 127.0.0.1 is refused after resolution, without connecting', async () => {
    const lookup = fakeResolver({ 'feeds.test': ['127.0.0.1'] });
    const err = await strictFetch(`http://feeds.test:${server.port}/feed`, lookup).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchBlockedError);
    expect((err as FetchBlockedError).reason).toBe(
      'feeds.test resolves to a refused address: 127.0.0.1 is not a public address (loopback)',
    );
    expect((err as FetchBlockedError).url).toBe(`http://feeds.test:${server.port}/feed`);
    expect(lookup).toHaveBeenCalledWith('feeds.test');
    expect(server.connections()).toBe(0);
  });

  it('localhost (system resolver) is refused', async () => {
    const policy = { ...SMALL, allow: STRICT, baseUrl: BASE_URL };
    await expect(safeFetch(`http://localhost:${server.port}/`, policy)).rejects.toBeInstanceOf(
      FetchBlockedError,
    );
    expect(server.connections()).toBe(0);
  });

  it.each([
    [['93.184.216.34', '127.0.0.1']],
    [['127.0.0.1', '93.184.216.34']],
    [['2606:4700::1', 'fd00::1']],
    [['93.184.216.34', '::ffff:10.0.0.1']],
  ])('a name resolving to public and private addresses %j is refused', async (addresses) => {
    const lookup = fakeResolver({ 'mixed.test': addresses });
    await expect(
      safeFetch(`http://mixed.test:${server.port}/`, {
        ...SMALL,
        timeoutMs: 2_000,
        allow: STRICT,
        baseUrl: BASE_URL,
        lookup,
      }),
    ).rejects.toBeInstanceOf(FetchBlockedError);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(server.connections()).toBe(0);
  });
});
