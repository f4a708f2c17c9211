// Rule 4 of outbound fetches (docs/security.md): names are resolved at connect time and every address is checked, so the
// address we judged is the address the socket uses (no DNS-rebinding window between check and connect).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { FetchBlockedError, FetchError } from './errors.js';
import { addressRefusal, compilePolicy, isAllowListedHost, type OutboundPolicy } from './policy.js';

/** Resolves a host name to all its addresses. Injectable so tests need no real DNS. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function guardedLookup(policy: OutboundPolicy, resolve: Resolver): LookupFunction {
  const compiled = compilePolicy(policy);
  return (hostname, options, callback) => {
    const fail = (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0);
    // Through a promise so a resolver that throws synchronously still ends in the callback.
    Promise.resolve(hostname)
      .then(resolve)
      .then((addresses) => {
        let usable: LookupAddress[];
        try {
          usable = permittedAddresses(hostname, addresses, options.family);
        } catch (err) {
          return fail(err);
        }
        // net asks for every address when it races IPv4/IPv6 (autoSelectFamily), else for one.
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      }, fail);
  };

  function permittedAddresses(
    hostname: string,
    addresses: LookupAddress[],
    family: unknown,
  ): LookupAddress[] {
    if (!isAllowListedHost(compiled, hostname)) {
      for (const { address } of addresses) {
        const refusal = addressRefusal(compiled, address);
        if (refusal !== undefined)
          throw new FetchBlockedError(`${hostname} resolves to a refused address: ${refusal}`);
      }
    }
    const wanted = family === 4 || family === 6 ? family : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    if (usable.length === 0)
      throw new FetchError(`${hostname} has no ${wanted === 0 ? '' : `IPv${wanted} `}address`);
    return usable;
  }
}
