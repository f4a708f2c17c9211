// connectBus takes the NATS user from BUS_URL's user info: the NATS client ignores user info in server URLs,
// so the credentials are split off and handed to it separately.
import { describe, expect, it } from '@jest/globals';
import { parseNatsServers } from '../../src/config/bus-url.js';

describe('parseNatsServers', () => {
  it('splits the user and password off the server URLs, percent-decoded', () => {
    expect(parseNatsServers('nats://reader:p%40ss@nats:4222')).toEqual({
      servers: ['nats://nats:4222'],
      auth: { user: 'reader', pass: 'p@ss' },
    });
  });

  it('uses one set of credentials for every server listed', () => {
    expect(parseNatsServers('nats://reader:pw@a:4222, nats://b:4222,nats://reader:pw@c:4222')).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222', 'nats://c:4222'],
      auth: { user: 'reader', pass: 'pw' },
    });
  });

  it('leaves URLs without user info as they are, with no credentials', () => {
    expect(parseNatsServers('nats://a:4222,tls://b:4222')).toEqual({
      servers: ['nats://a:4222', 'tls://b:4222'],
    });
  });

  it('refuses different credentials on different servers, and never echoes a password', () => {
    expect(() => parseNatsServers('nats://reader:one@a:4222,nats://reader:two@b:4222')).toThrow(
      'bus URL: the servers name different credentials; use one user for all of them',
    );
    for (const bad of ['nats://:secretpw@a:4222', 'nats://reader:secretpw@', 'http://reader:secretpw@a']) {
      let message = '';
      try {
        parseNatsServers(bad);
      } catch (err) {
        message = (err as Error).message;
      }
      expect([bad, message]).toEqual([bad, expect.stringMatching(/^bus URL: /)]);
      expect(message).not.toContain('secretpw');
    }
  });
});
