// literalAddressRefusal (libs/fetch/src/fetch/policy.ts): the address literal of a URL judged on its own
// by the outbound policy, as the fetcher judges it — whatever the URL's port or user info (issue 37:
// webmention's check went through the whole URL check and stopped at the port). For checks made before
// a fetch is queued.
import { describe, expect, it } from '@jest/globals';
import { literalAddressRefusal, outboundPolicyFromConfig } from '../../src/index.js';

const strict = outboundPolicyFromConfig({});

describe('literalAddressRefusal', () => {
  it.each([
    'http://127.0.0.2/x',
    'http://127.0.0.2:22/x',
    'http://u:p@127.0.0.2:8080/x',
    'http://[::1]:25/x',
    'http://[::ffff:127.0.0.2]/',
    'http://0x7f.0.0.2/',
    'http://2130706434/',
    'http://10.0.0.1/',
    'http://169.254.169.254/',
    'http://0.0.0.0/',
  ])('%s → refused, naming the address', (url) => {
    expect(literalAddressRefusal(url, strict)).toMatch(/is not a public address/);
  });

  it('a host name, a public address or no URL at all → nothing to say', () => {
    for (const url of [
      'http://example.com:22/',
      'http://93.184.216.34:22/',
      'https://[2606:4700::1111]/',
      'not a url',
    ])
      expect(literalAddressRefusal(url, strict)).toBeUndefined();
  });

  it('follows the operator: OUTBOUND_ALLOW_HOSTS and OUTBOUND_ALLOW_PRIVATE allow what the fetch would', () => {
    const allowOne = outboundPolicyFromConfig({ OUTBOUND_ALLOW_HOSTS: ['127.0.0.1'] });
    expect(literalAddressRefusal('http://127.0.0.1:8080/x', allowOne)).toBeUndefined();
    expect(literalAddressRefusal('http://127.0.0.2:8080/x', allowOne)).toMatch(/not a public address/);
    const range = outboundPolicyFromConfig({ OUTBOUND_ALLOW_HOSTS: ['127.0.0.0/8'] });
    expect(literalAddressRefusal('http://u:p@127.0.0.2:22/', range)).toBeUndefined();
    const anything = outboundPolicyFromConfig({ OUTBOUND_ALLOW_PRIVATE: true });
    expect(literalAddressRefusal('http://[::1]:25/x', anything)).toBeUndefined();
  });
});
