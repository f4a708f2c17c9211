// The bus URL's NATS form, parsed where the configuration is checked (BUS_URL) and where the bus connects.
export interface NatsServers {
  /** Server URLs without user info, as the NATS client takes them. */
  servers: string[];
  /** The user and password of the URL's user info (percent-decoded), when it has one. */
  auth?: { user: string; pass: string };
}

/**
 * `nats://user:password@host:4222[,nats://user:password@host2:4222…]` → the servers and one set of credentials.
 * Credentials may be written on every server or on the first only; servers naming different ones are refused
 * (the client authenticates the same way to whichever server it reaches). Error messages never echo a password.
 */
export function parseNatsServers(url: string): NatsServers {
  const parts = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let auth: { user: string; pass: string } | undefined;
  const servers = parts.map((part, index) => {
    let parsed: URL;
    try {
      parsed = new URL(part);
    } catch {
      throw new Error(`bus URL: server ${index + 1} is not a URL (nats://[user:password@]host:port)`);
    }
    if (!/^(nats|tls):$/.test(parsed.protocol) || !parsed.host) {
      throw new Error(`bus URL: server ${index + 1} must be nats://[user:password@]host:port`);
    }
    if (parsed.username !== '' || parsed.password !== '') {
      const here = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
      if (here.user === '') throw new Error(`bus URL: server ${index + 1} has a password but no user`);
      if (auth && (auth.user !== here.user || auth.pass !== here.pass)) {
        throw new Error('bus URL: the servers name different credentials; use one user for all of them');
      }
      auth = here;
    }
    return `${parsed.protocol}//${parsed.host}`;
  });
  if (servers.length === 0) throw new Error('bus URL names no server');
  return auth ? { servers, auth } : { servers };
}
