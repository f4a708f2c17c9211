// The gateway's environment. It shares the base variables it needs (log level, public URL, port,
// proxy trust, shutdown time) with the services and adds where each service is reached.
import { z } from 'zod';
import {
  baseConfigShape,
  envVar,
  SERVICE_NAMES,
  serviceUrlVar,
  type ServiceName,
  type ServiceUrlVar,
} from '@murmur/core';

type ServiceUrlShape = {
  [N in ServiceName as ServiceUrlVar<N>]: z.ZodOptional<ReturnType<typeof envVar.httpUrl>>;
};

const serviceUrlShape = Object.fromEntries(
  SERVICE_NAMES.map((name) => [serviceUrlVar(name), envVar.httpUrl().optional()]),
) as ServiceUrlShape;

export const gatewayConfigSchema = z.object({
  LOG_LEVEL: baseConfigShape.LOG_LEVEL,
  PORT: baseConfigShape.PORT,
  PUBLIC_URL: baseConfigShape.PUBLIC_URL,
  TRUST_PROXY: baseConfigShape.TRUST_PROXY,
  SHUTDOWN_TIMEOUT_MS: baseConfigShape.SHUTDOWN_TIMEOUT_MS,
  HOST: envVar.string().default('0.0.0.0'),
  /** Port of the internal server (/metrics, aggregate /readyz, /healthz); 0 picks a free port. */
  GATEWAY_INTERNAL_PORT: envVar.int({ min: 0, max: 65_535 }).default(9090),
  /**
   * Address the internal server binds. Loopback by default, so only the host (or the pod) reaches it;
   * set it to an address a monitoring network reaches, never a public one.
   */
  INTERNAL_HOST: envVar.string().default('127.0.0.1'),
  /** Requests per client IP per minute over all proxied routes; 0 turns the limit off. */
  GATEWAY_RATE_LIMIT_PER_MINUTE: envVar.int({ min: 0, max: 10_000_000 }).default(1200),
  /** Upstream timeout for routes without their own. */
  GATEWAY_UPSTREAM_TIMEOUT_MS: envVar.int({ min: 100, max: 3_600_000 }).default(30_000),
  /**
   * Sites on their own host names: requests whose Host is not PUBLIC_URL's host (nor an
   * IP address or localhost) go to publishing. Off by default, so reaching the server by another name
   * never silently changes what answers.
   */
  GATEWAY_SITE_HOSTS: envVar.bool().default(false),
  /** How long /readyz waits for each service's /readyz. */
  GATEWAY_READY_TIMEOUT_MS: envVar.int({ min: 50, max: 60_000 }).default(2_000),
  ...serviceUrlShape,
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
export type Targets = Partial<Record<ServiceName, string>>;

/** The `<NAME>_URL` variables that are set, by service. */
export function targetsFromConfig(config: GatewayConfig): Targets {
  const targets: Targets = {};
  for (const name of SERVICE_NAMES) {
    const url = config[serviceUrlVar(name)];
    if (url) targets[name] = url;
  }
  return targets;
}
