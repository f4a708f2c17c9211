// Rules 1–4 and 8 of outbound fetches (docs/security.md): which URLs and addresses an outbound request may reach.
import ipaddr from 'ipaddr.js';
import { FetchBlockedError } from './errors.js';

export interface OutboundPolicy {
  /** Skip the address check entirely (development and test setups only). */
  readonly allowPrivate: boolean;
  /** Host names (exact match) or IP addresses/CIDRs reachable even when not public unicast. */
  readonly allowHosts: readonly string[];
}

export const MAX_URL_LENGTH = 2048;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface CompiledPolicy {
  readonly allowPrivate: boolean;
  readonly hosts: ReadonlySet<string>;
  readonly ranges: ReadonlyArray<[Address, number]>;
}

const compiled = new WeakMap<OutboundPolicy, CompiledPolicy>();

/** Builds the policy from the loaded configuration; throws on an allow-list entry that is neither host nor CIDR. */
export function outboundPolicyFromConfig(config: {
  OUTBOUND_ALLOW_PRIVATE?: boolean;
  OUTBOUND_ALLOW_HOSTS?: readonly string[];
}): OutboundPolicy {
  const policy: OutboundPolicy = {
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE === true,
    allowHosts: (config.OUTBOUND_ALLOW_HOSTS ?? []).map((h) => h.trim()).filter((h) => h !== ''),
  };
  compilePolicy(policy);
  return policy;
}

export function compilePolicy(policy: OutboundPolicy): CompiledPolicy {
  let result = compiled.get(policy);
  if (result) return result;
  const hosts = new Set<string>();
  const ranges: Array<[Address, number]> = [];
  for (const raw of policy.allowHosts) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`Outbound allow-list: "${raw}" is not a valid CIDR`);
      const [addr, bits] = ipaddr.parseCIDR(entry);
      ranges.push(
        addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
          ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96]
          : [addr, bits],
      );
    } else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.process(entry);
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9._-]+$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`Outbound allow-list: "${raw}" is neither a host name nor an IP address/CIDR`);
    }
  }
  result = { allowPrivate: policy.allowPrivate, hosts, ranges };
  compiled.set(policy, result);
  return result;
}

export function isAllowListedHost(policy: CompiledPolicy, hostname: string): boolean {
  return policy.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
}

/** Why `address` may not be contacted under `policy`, or undefined when it may. */
export function addressRefusal(policy: CompiledPolicy, address: string): string | undefined {
  if (policy.allowPrivate) return undefined;
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so mapped loopback is judged as loopback.
  const addr = ipaddr.process(address);
  if (policy.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits)))
    return undefined;
  const range = addr.range();
  if (range !== 'unicast') return `${addr.toString()} is not a public address (${range})`;
  // ipaddr calls IPv4-compatible (::a.b.c.d) and other unassigned space "unicast"; only 2000::/3 is routed.
  if (addr.kind() === 'ipv6' && !addr.match(ipaddr.parse('2000::'), 3)) {
    return `${addr.toString()} is not a public address (outside 2000::/3)`;
  }
  return undefined;
}

/**
 * Why the URL's host, when it is an IP literal (in any form the WHATWG parser normalises: `2130706433`,
 * `0x7f.1`, `[::ffff:127.0.0.1]`), may not be contacted under `policy`; undefined for a host name
 * (checked when it is resolved) or an allowed address. The address alone: scheme, user info and port
 * are assertFetchableUrl's other rules. For checks made before a fetch is queued (webmention sources),
 * so that they refuse exactly what the fetch would.
 */
export function literalAddressRefusal(input: string | URL, policy: OutboundPolicy): string | undefined {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    return undefined;
  }
  const literal = hostLiteral(url.hostname);
  return literal === undefined ? undefined : addressRefusal(compilePolicy(policy), literal);
}

/**
 * Applies rules 1–3 to a URL before any connection: scheme, userinfo, length, port, and the address
 * check for IP literals (which never reach the connect-time lookup). Returns the parsed URL.
 */
export function assertFetchableUrl(input: string | URL, policy: OutboundPolicy): URL {
  const text = String(input);
  if (text.length > MAX_URL_LENGTH)
    throw new FetchBlockedError(`URL longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchBlockedError('not an absolute URL');
  }
  const where = { url: url.href };
  if (url.href.length > MAX_URL_LENGTH) {
    throw new FetchBlockedError(`URL longer than ${MAX_URL_LENGTH} characters`, where);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchBlockedError(`scheme ${url.protocol} is not allowed`, where);
  }
  if (url.username !== '' || url.password !== '') throw new FetchBlockedError('credentials in URL', where);
  if (url.port !== '') {
    const port = Number(url.port);
    if (port !== 80 && port !== 443 && port < 1024)
      throw new FetchBlockedError(`port ${port} is not allowed`, where);
  }
  const literal = hostLiteral(url.hostname);
  if (literal !== undefined) {
    const refusal = addressRefusal(compilePolicy(policy), literal);
    if (refusal !== undefined) throw new FetchBlockedError(refusal, where);
  }
  return url;
}

/** The address when the URL host is an IP literal (the WHATWG parser already normalised 2130706433, 0x7f.1, …). */
function hostLiteral(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : undefined;
}
