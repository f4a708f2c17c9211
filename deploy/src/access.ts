// Who may do what on the bus and in the store: the one source of the NATS server configurations (compose and
// Kubernetes) and of the script that creates the per-service MongoDB users. deploy/test/rendered.test.ts checks
// that the committed files equal what this module renders; after changing it, rewrite them with
//   UPDATE_RENDERED=1 node --experimental-vm-modules node_modules/jest/bin/jest.js deploy/test/rendered
// docs/operations.md explains the choices (user/password rather than nkeys, what each permission is for).
import { SERVICE_NAMES, type ServiceName } from '@murmur/core';

/** The Murmur services that get a NATS user and a MongoDB user: every one, deployed yet or not. */
export const SERVICES: readonly ServiceName[] = SERVICE_NAMES;

/** `reader` → `NATS_READER_PASSWORD`: the Secret key (and the NATS server's environment variable). */
export const natsPasswordVar = (service: string): string => `NATS_${service.toUpperCase()}_PASSWORD`;
/** `reader` → `MONGO_READER_PASSWORD`: the Secret key (and the users script's environment variable). */
export const mongoPasswordVar = (service: string): string => `MONGO_${service.toUpperCase()}_PASSWORD`;
/** The database a service owns and the only one its MongoDB user may read and write. */
export const databaseOf = (service: string): string => `murmur_${service}`;
/** MongoDB users live in `admin`; STORE_URL says `?authSource=admin`. */
export const MONGO_AUTH_SOURCE = 'admin';

export interface NatsPermissions {
  publish: { allow: string[]; deny: string[] };
  subscribe: { allow: string[] };
}

/**
 * What a service's NATS user may do. Publish: its own events (`evt.<service>.>`), requests to every service — its
 * own included: a service's routes check tokens through identity's bus requests (@murmur/identity-client), and in
 * identity that request is to its own subject (`identity.token.verify`, answered by any identity replica) —
 * the JetStream API (stream and consumer set-up, pulls, publish acknowledgements come back on inboxes) except
 * deleting or purging streams, acknowledgements of EVENTS deliveries, and dead letters (`dlq.<durable>`: durable
 * names are one subject token, so this cannot be narrowed per service). Replies go only to the inbox of a request
 * it received (`allow_responses`). Subscribe: its own requests (`<service>.>`), every event (listeners), its inboxes.
 */
export function natsPermissions(service: ServiceName): NatsPermissions {
  return {
    publish: {
      allow: [`evt.${service}.>`, ...SERVICES.map((s) => `${s}.>`), '$JS.API.>', '$JS.ACK.EVENTS.>', 'dlq.>'],
      deny: ['$JS.API.STREAM.DELETE.>', '$JS.API.STREAM.PURGE.>', '$JS.API.STREAM.MSG.DELETE.>'],
    },
    subscribe: { allow: [`${service}.>`, 'evt.>', '_INBOX.>'] },
  };
}

export interface NatsServerLayout {
  /** `server_name`; `$POD_NAME` takes it from the environment. */
  serverName: string;
  storeDir: string;
  pidFile?: string;
  /** A JetStream cluster: its name, size and the StatefulSet/headless Service naming its members. */
  cluster?: { name: string; size: number; statefulSet: string; service: string; port: number };
}

export const CLIENT_PORT = 4222;
export const MONITOR_PORT = 8222;
export const ROUTE_PORT = 6222;

/** Compose: one server, JetStream under the nats-data volume (mounted at /data). */
export const COMPOSE_NATS: NatsServerLayout = { serverName: 'murmur-nats', storeDir: '/data' };

/** Kubernetes: the three members of StatefulSet nats, found through its headless Service. */
export const KUBERNETES_NATS: NatsServerLayout = {
  serverName: '$POD_NAME',
  storeDir: '/data/jetstream',
  pidFile: '/var/run/nats/nats.pid',
  cluster: { name: 'murmur', size: 3, statefulSet: 'nats', service: 'nats', port: ROUTE_PORT },
};

const quote = (s: string): string => JSON.stringify(s);
/** A JavaScript string literal as prettier writes it (the names quoted here hold no quotes or backslashes). */
const jsString = (s: string): string => `'${s}'`;
const list = (items: string[]): string => `[${items.map(quote).join(', ')}]`;

const GENERATED = (what: string) =>
  [
    `# ${what}`,
    '# GENERATED from deploy/src/access.ts: edit that module, then rewrite this file with',
    '#   UPDATE_RENDERED=1 node --experimental-vm-modules node_modules/jest/bin/jest.js deploy/test/rendered',
  ].join('\n');

export function renderNatsConfig(layout: NatsServerLayout): string {
  const lines = [
    GENERATED('NATS server for Murmur: JetStream, and one user per service with its own permissions.'),
    `server_name: ${layout.serverName}`,
    `port: ${CLIENT_PORT}`,
    `http_port: ${MONITOR_PORT}`,
    ...(layout.pidFile ? [`pid_file: ${layout.pidFile}`] : []),
    "# Murmur's event and request payloads are small; 1 MiB is the server default, stated here.",
    'max_payload: 1MB',
    'lame_duck_duration: 30s',
    'lame_duck_grace_period: 10s',
    'jetstream {',
    `  store_dir: ${layout.storeDir}`,
    '  max_memory_store: 256MB',
    '  max_file_store: 8GB',
    '}',
  ];
  if (layout.cluster) {
    const c = layout.cluster;
    const routes = Array.from(
      { length: c.size },
      (_, i) => `nats-route://${c.statefulSet}-${i}.${c.service}:${c.port}`,
    );
    lines.push(
      '# Routes between the members; only NATS pods may reach the route port (network-policies.yaml).',
      'cluster {',
      `  name: ${c.name}`,
      `  port: ${c.port}`,
      '  routes: [',
      ...routes.map((r) => `    ${r}`),
      '  ]',
      '  connect_retries: 120',
      '}',
    );
  }
  lines.push(
    '# Passwords come from the environment (the Secret), never from this file.',
    'authorization {',
    '  users: [',
  );
  for (const service of SERVICES) {
    const p = natsPermissions(service);
    lines.push(
      '    {',
      `      user: ${service}`,
      `      password: $${natsPasswordVar(service)}`,
      '      permissions: {',
      `        publish: { allow: ${list(p.publish.allow)}, deny: ${list(p.publish.deny)} }`,
      `        subscribe: { allow: ${list(p.subscribe.allow)} }`,
      '        allow_responses: true',
      '      }',
      '    }',
    );
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/**
 * A mongosh script, run as the root user against `admin`: creates each service's user, or updates its password and
 * roles when it exists, so running it again after a password change or a new service is safe. Every password must be
 * set: a missing one fails the run, naming it.
 */
export function renderMongoUsersScript(): string {
  const services = SERVICES.map(
    (s) => `  [${jsString(s)}, ${jsString(mongoPasswordVar(s))}, ${jsString(databaseOf(s))}],`,
  );
  return [
    GENERATED('MongoDB users for Murmur: one per service, readWrite on its own database only.').replace(
      /^# /gm,
      '// ',
    ),
    '// Run as root: mongosh mongodb://mongodb:27017/admin -u root -p "$PASSWORD" --file mongodb-users.js',
    '/* global db, print, quit */',
    'const services = [',
    ...services,
    '];',
    `const admin = db.getSiblingDB(${jsString(MONGO_AUTH_SOURCE)});`,
    'const missing = services.filter(([, variable]) => !process.env[variable]).map(([, variable]) => variable);',
    'if (missing.length > 0) {',
    "  print(`missing passwords: ${missing.join(', ')}`);",
    '  quit(1);',
    '}',
    'for (const [user, variable, database] of services) {',
    '  const pwd = process.env[variable];',
    "  const roles = [{ role: 'readWrite', db: database }];",
    '  if (admin.getUser(user)) admin.updateUser(user, { pwd, roles });',
    '  else admin.createUser({ user, pwd, roles });',
    '  print(`${user}: readWrite on ${database}`);',
    '}',
    '',
  ].join('\n');
}

/** Every rendered file, by its path in the repository. */
export function renderedFiles(): Record<string, string> {
  return {
    'deploy/compose/nats.conf': renderNatsConfig(COMPOSE_NATS),
    'deploy/base/nats.conf': renderNatsConfig(KUBERNETES_NATS),
    'deploy/base/mongodb-users.js': renderMongoUsersScript(),
  };
}
