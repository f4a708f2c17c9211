// Who the client is, resolved before any Fastify lifecycle: for the fast lane (fast-lane.ts), which
// takes requests ahead of the gateway's Fastify route, and for the in-process hand-offs, which give a
// service the client's own socket. The rules are Fastify's for the same TRUST_PROXY value (its request's
// `ip`, `ips` and `protocol` getters, built on the same @fastify/proxy-addr), so a request gets the same
// X-Forwarded-* headers whichever way it goes: gateway/test/200-client-address-same-every-way.test.ts checks
// what a service resolves proxied, through the lane and through the route, for trusted and untrusted peers.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { BoundedMemo } from '@murmur/core';

/** Whether a peer at `address`, `hop` hops from the gateway, is a proxy whose forwarded headers count. */
export type Trust = (address: string, hop: number) => boolean;

/** How many peer addresses compileTrust remembers before it starts over. */
const REMEMBERED_PEERS = 10_000;

/**
 * The trust function Fastify builds from a `trustProxy` of `true`, `false` or a list of addresses.
 * proxy-addr parses the address on every call (0.75 µs, asked once per request for the peer), so the
 * answer for a peer is remembered: the same few addresses connect again and again.
 */
export function compileTrust(value: boolean | readonly string[]): Trust {
  if (value === true) return () => true;
  if (value === false) return () => false;
  const trust = proxyAddr.compile([...value]);
  const peers = new BoundedMemo<string, boolean>(REMEMBERED_PEERS);
  const trustPeer = (address: string) => trust(address, 0);
  return (address, hop) => (hop !== 0 ? trust(address, hop) : peers.answer(address, trustPeer));
}

export interface Client {
  /** The client's address: the peer, or the nearest address a trusted proxy forwarded. */
  ip: string;
  /** X-Forwarded-For for the service: the verified chain, client first. */
  forwardedFor: string;
  /** `https` only when a trusted peer said so in X-Forwarded-Proto. */
  protocol: string;
  /** The address of the connection's other end (read once: the socket's getter is not free). */
  peer: string;
}

/** The client of `req`, as the gateway's Fastify route would resolve it under `trust`. */
export function clientOf(req: IncomingMessage, trust: Trust): Client {
  const peer = req.socket.remoteAddress ?? '';
  const headers = req.headers;
  if (headers['x-forwarded-for'] === undefined && headers['x-forwarded-proto'] === undefined) {
    return { ip: peer, forwardedFor: peer, protocol: 'http', peer };
  }
  const chain = proxyAddr.all(req, trust);
  const forwardedProto = headers['x-forwarded-proto'];
  const protocol =
    typeof forwardedProto === 'string' && forwardedProto !== '' && trust(peer, 0)
      ? lastEntry(forwardedProto)
      : 'http';
  return {
    ip: chain[chain.length - 1] ?? peer,
    forwardedFor: chain.reverse().join(', '),
    protocol,
    peer,
  };
}

/** Fastify's reading of a header sent more than once: the last value. */
function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
}
