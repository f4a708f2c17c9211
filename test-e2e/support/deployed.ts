// The distributed shape as the operators' files describe it, run on one machine: each Murmur process's
// variables are read from docker-compose.yml (its command too: node flags and entry file), and NATS runs
// deploy/compose/nats.conf with a user per service. Only what cannot be the same on one machine in a
// test is replaced — addresses, ports, secrets, the public URL, log level — and each replacement is
// listed below with its reason. deploy/test/e2e-run-is-the-deployed-shape.test.ts proves that this run
// and the kustomize base set the same variables compose does.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { ServiceName } from '@murmur/core';
import { repoRoot } from './processes.js';

/** A process of the run: each service, and the gateway (the same names as the cluster's parts). */
export type DeployedPart = ServiceName | 'gateway';

/** Where the parts of one run are. */
export interface DeployedSite {
  publicUrl: string;
  adminToken: string;
  /** `mongodb://host:port/`: the MongoDB-wire server every service keeps its own database on. */
  mongoUrl: string;
  natsPort: number;
  /** Each service's NATS password (the compose file takes them from .env). */
  natsPasswords: Record<string, string>;
  /** The port each part listens on. */
  ports: Partial<Record<DeployedPart, number>>;
  /** The gateway's internal port (/readyz, /metrics). */
  gatewayInternalPort: number;
  /** Each part's DATA_DIR is <dataDir>/<part>-data. */
  dataDir: string;
  /** Appended to each database name, so runs sharing one server never meet (`murmur_feeds_1a2b3c`). */
  databaseSuffix: string;
}

/**
 * Compose variables whose value this run replaces, and why. Every other variable compose sets for a part,
 * this run sets to compose's own value.
 */
export const REPLACED: Record<string, string> = {
  HOST: 'every process listens on 127.0.0.1 (one machine), not on all of its container interfaces',
  PORT: "a free port (the gateway's; compose publishes 8080)",
  PUBLIC_URL: "the test's public URL",
  LOG_LEVEL: 'TEST_LOG_LEVEL, default warn (compose: info)',
  TRUST_PROXY: "services believe X-Forwarded-For from the gateway's address, here 127.0.0.1",
  BUS_URL: "the same NATS user, the test's password, the test's nats-server on 127.0.0.1",
  STORE_URL:
    "the same database (murmur_<service>, suffixed per run: runs share the server) and options, on the run's MongoDB-wire server; without a user: FerretDB over PostgreSQL has no MongoDB users",
  MURMUR_ADMIN_TOKEN: "the test's token",
  WEBSUB_FEEDS_ORIGIN:
    "the hub reads the feeds through the run's gateway on 127.0.0.1 (compose: http://gateway:8080)",
};
/** Also replaced: `<SERVICE>_PORT` (a free port) and the gateway's `<SERVICE>_URL` (127.0.0.1 and that port). */
export const isPortOrServiceUrl = (part: DeployedPart, name: string): boolean =>
  /^[A-Z]+_PORT$/.test(name) || (part === 'gateway' && /^[A-Z]+_URL$/.test(name));

/** Variables this run sets that compose leaves at their defaults, and why. */
export const ADDED: Record<string, string> = {
  DATA_DIR: "a directory of the test's (compose mounts a volume at the default, /app/data)",
  GATEWAY_INTERNAL_PORT: 'a free port (compose: the default, 9090)',
  GATEWAY_RATE_LIMIT_PER_MINUTE:
    'off (0): every client of the test comes from 127.0.0.1 (compose: the default)',
};

/** Compose variables the operator may leave unset (`NAME:` or `${NAME}`); a test gives them when it needs them. */
export const OPTIONAL_FROM_OPERATOR = [
  'MAIL_URL',
  'MAIL_FROM',
  'APPLE_CLIENT_IDS',
  'READER_LLM_URL',
  'READER_LLM_API_KEY',
] as const;

interface ComposeService {
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
}

let compose: Record<string, ComposeService> | undefined;
/** docker-compose.yml's services, `<<: *anchor` merged as compose merges them. */
export function composeServices(): Record<string, ComposeService> {
  compose ??= (
    parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, ComposeService>;
    }
  ).services;
  return compose;
}

/** `${NAME:-default}` → default; `${NAME:?message}` and `${NAME}` → '' (the operator's value). */
const defaults = (text: string): string =>
  text.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*(?:(:?[-?])([^}]*))?\}/g, (_m, op?: string, fallback?: string) =>
    op?.endsWith('-') ? (fallback ?? '') : '',
  );

/** The part's command in compose: `node [flags…] <entry>`. */
export function deployedCommand(part: DeployedPart): { nodeArgs: string[]; entry: string } {
  const command = composeServices()[part]?.command;
  if (!command || command[0] !== 'node') throw new Error(`docker-compose.yml: ${part} has no node command`);
  return { nodeArgs: command.slice(1, -1), entry: command[command.length - 1]! };
}

/**
 * The environment of `part` in this run: compose's variables with the replacements above, plus `extra`
 * (stand-ins a test needs: a mail server, an APNs stand-in, hosts the safe fetcher may reach).
 */
export function deployedEnv(
  part: DeployedPart,
  site: DeployedSite,
  extra: Record<string, string> = {},
): Record<string, string> {
  const service = composeServices()[part];
  if (!service) throw new Error(`docker-compose.yml has no service ${part}`);
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(service.environment ?? {})) {
    if (raw === null || raw === undefined) continue; // passed on only when the operator sets it
    const value = defaults(String(raw));
    if (name === 'HOST') env[name] = '127.0.0.1';
    else if (name === 'PUBLIC_URL') env[name] = site.publicUrl;
    else if (name === 'LOG_LEVEL') env[name] = process.env.TEST_LOG_LEVEL ?? 'warn';
    else if (name === 'TRUST_PROXY') env[name] = part === 'gateway' ? value : '127.0.0.1';
    else if (name === 'MURMUR_ADMIN_TOKEN') env[name] = site.adminToken;
    else if (name === 'BUS_URL') {
      const user = decodeURIComponent(new URL(value).username);
      const password = site.natsPasswords[user];
      if (!password) throw new Error(`no NATS password for user ${user}`);
      env[name] = `nats://${user}:${password}@127.0.0.1:${site.natsPort}`;
    } else if (name === 'STORE_URL') {
      const url = new URL(value);
      if (url.protocol !== 'mongodb:') throw new Error(`${part}: compose's STORE_URL is not mongodb://`);
      env[name] = `${site.mongoUrl.replace(/\/+$/, '')}${url.pathname}${site.databaseSuffix}${url.search}`;
    } else if (name === 'PORT' || /^[A-Z]+_PORT$/.test(name)) {
      const port = site.ports[part];
      if (port === undefined) throw new Error(`no port for ${part}`);
      env[name] = String(port);
    } else if (name === 'WEBSUB_FEEDS_ORIGIN') {
      // The hub reads Murmur's feeds through the gateway (compose: http://gateway:8080).
      env[name] = `http://127.0.0.1:${site.ports.gateway}`;
    } else if (part === 'gateway' && /^[A-Z]+_URL$/.test(name)) {
      const target = name.slice(0, -'_URL'.length).toLowerCase() as DeployedPart;
      const port = site.ports[target];
      // A service this run does not start is left out, so the gateway answers 503 for its routes.
      if (port !== undefined) env[name] = `http://127.0.0.1:${port}`;
    } else env[name] = value;
  }
  env.DATA_DIR = join(site.dataDir, `${part}-data`);
  if (part === 'gateway') {
    env.GATEWAY_INTERNAL_PORT = String(site.gatewayInternalPort);
    env.GATEWAY_RATE_LIMIT_PER_MINUTE = '0';
  }
  return { ...env, ...extra };
}

/** A NATS password per service (they start with a letter: nats-server reads a leading digit as a number). */
export function natsPasswords(): Record<string, string> {
  const services = Object.keys(composeServices()).filter((s) => s !== 'gateway');
  return Object.fromEntries(services.map((s) => [s, `n${randomBytes(16).toString('hex')}`]));
}

/**
 * deploy/compose/nats.conf as committed, on 127.0.0.1:<port>, its monitoring port and JetStream store moved
 * into the test's directory; returns the path of the copy. The passwords come from the environment, as in compose.
 */
export function writeComposeNatsConf(dir: string, port: number, monitorPort: number): string {
  mkdirSync(dir, { recursive: true });
  const committed = readFileSync(join(repoRoot, 'deploy/compose/nats.conf'), 'utf8');
  const conf = committed
    .replace(/^port: 4222$/m, `host: 127.0.0.1\nport: ${port}`)
    .replace(/^http_port: 8222$/m, `http_port: ${monitorPort}`)
    .replace(/^(\s*)store_dir: .*$/m, `$1store_dir: ${JSON.stringify(join(dir, 'jetstream'))}`);
  if (conf === committed || !conf.includes(`port: ${port}`) || !conf.includes(join(dir, 'jetstream')))
    throw new Error(
      'deploy/compose/nats.conf no longer has the port, http_port and store_dir lines expected',
    );
  const file = join(dir, 'nats.conf');
  writeFileSync(file, conf);
  return file;
}

/** The environment nats-server needs for the compose configuration: NATS_<SERVICE>_PASSWORD. */
export const natsPasswordEnv = (passwords: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(passwords).map(([s, p]) => [`NATS_${s.toUpperCase()}_PASSWORD`, p]));
