// Variables every process reads, and the per-service port variables. docs/configuration.md lists them.
import { z } from 'zod';
import { parseNatsServers } from './bus-url.js';
import { envVar, isHostOrCidr, trustProxyVar } from './vars.js';

export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = './data';

export const baseConfigShape = {
  LOG_LEVEL: envVar.logLevel().default('info'),
  /** Port of the gateway (the one public address). */
  PORT: envVar.port().default(DEFAULT_PORT),
  /** Public base URL; loadConfig derives the default from PORT. No trailing slash. */
  PUBLIC_URL: envVar.httpUrl().default(`http://localhost:${DEFAULT_PORT}`),
  DATA_DIR: envVar.string().default(DEFAULT_DATA_DIR),
  /** loadConfig derives the default from DATA_DIR. */
  STORE_URL: envVar
    .urlWithScheme(['file:', 'memory:', 'mongodb://', 'mongodb+srv://'])
    .default(`file:${DEFAULT_DATA_DIR}`),
  /**
   * `memory:[name]`, or NATS servers `nats://[user:password@]host:port[,…]`. The user info (one user for every
   * server listed) is how a service authenticates to a NATS server with per-service users; error messages and
   * logs never show the password.
   */
  BUS_URL: z
    .string()
    .transform((text, ctx) => {
      const s = text.trim();
      if (s.startsWith('memory:')) return s;
      try {
        parseNatsServers(s);
      } catch (err) {
        // What is wrong with the user info is worth saying; parseNatsServers never echoes a password.
        const message = (err as Error).message;
        const detail = /credentials|no user/.test(message) ? `: ${message.replace(/^bus URL: /, '')}` : '';
        ctx.addIssue({
          code: 'custom',
          message: `must be memory:[name] or nats://host:port[,nats://…]${detail}`,
        });
      }
      return s;
    })
    .default('memory:'),
  /**
   * Replicas of the JetStream streams the bus creates: 1 on a single NATS server, 3 on a three-node cluster
   * (an event survives the loss of one node). More than the cluster's size makes stream creation fail.
   */
  BUS_STREAM_REPLICAS: envVar.int({ min: 1, max: 5 }).default(1),
  /**
   * Embedded `file:` store: the most memory SQLite's page cache of one service's database may take, in
   * MiB. Unset: 64 for a service in its own process, 16 per service in the single process.
   */
  STORE_CACHE_MIB: envVar.int({ min: 1, max: 65_536 }).optional(),
  OUTBOUND_ALLOW_PRIVATE: envVar.bool().default(false),
  OUTBOUND_ALLOW_HOSTS: envVar
    .list({ test: isHostOrCidr, message: 'must be a comma list of host names, IP addresses or CIDRs' })
    .default([]),
  TRUST_PROXY: trustProxyVar().default(['loopback']),
  SHUTDOWN_TIMEOUT_MS: envVar.int({ min: 0, max: 600_000 }).default(10_000),
};

export const baseConfigSchema = z.object(baseConfigShape);
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/**
 * Variables whose default is computed from another variable. loadConfig fills them in before
 * validation, and only when the variable they depend on is itself well-formed (otherwise that
 * variable's own error is the one worth reading).
 */
export const DEPENDENT_DEFAULTS: ReadonlyArray<{
  name: string;
  from: (env: Record<string, string | undefined>) => string | undefined;
}> = [
  {
    name: 'PUBLIC_URL',
    from: (env) => {
      const port = env.PORT?.trim() ?? '';
      return /^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535
        ? `http://localhost:${Number(port)}`
        : undefined;
    },
  },
  {
    name: 'STORE_URL',
    from: (env) => (env.DATA_DIR !== undefined ? `file:${env.DATA_DIR.trim()}` : undefined),
  },
];

export const SERVICE_NAMES = [
  'identity',
  'reader',
  'feeds',
  'microsub',
  'webmention',
  'archive',
  'publishing',
  'push',
  'federation',
  'websub',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const SERVICE_DEFAULT_PORTS: Readonly<Record<ServiceName, number>> = {
  identity: 8081,
  reader: 8082,
  feeds: 8083,
  microsub: 8084,
  webmention: 8085,
  archive: 8086,
  publishing: 8087,
  push: 8088,
  federation: 8089,
  websub: 8090,
};

export type ServicePortVar<N extends string> = `${Uppercase<N>}_PORT`;
export type ServiceUrlVar<N extends string> = `${Uppercase<N>}_URL`;

/** `identity` → `IDENTITY_PORT`: where the service listens. */
export function servicePortVar<N extends string>(name: N): ServicePortVar<N> {
  return `${name.toUpperCase()}_PORT` as ServicePortVar<N>;
}

/** `identity` → `IDENTITY_URL`: where the gateway (and the single process) reach the service. */
export function serviceUrlVar<N extends string>(name: N): ServiceUrlVar<N> {
  return `${name.toUpperCase()}_URL` as ServiceUrlVar<N>;
}

type PortSchema = z.ZodDefault<ReturnType<typeof envVar.port>>;

/** `<NAME>_PORT` (default from SERVICE_DEFAULT_PORTS) and `HOST` (default 0.0.0.0) for a service. */
export function serviceConfigShape<N extends ServiceName>(
  name: N,
): { [K in ServicePortVar<N>]: PortSchema } & { HOST: z.ZodDefault<ReturnType<typeof envVar.string>> } {
  return {
    [servicePortVar(name)]: envVar.port().default(SERVICE_DEFAULT_PORTS[name]),
    HOST: envVar.string().default('0.0.0.0'),
  } as { [K in ServicePortVar<N>]: PortSchema } & { HOST: z.ZodDefault<ReturnType<typeof envVar.string>> };
}
