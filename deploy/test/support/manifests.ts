// Reads the deployment files as data: docker-compose.yml, every YAML document under deploy/base and
// the Dockerfile. What both orchestrators say about a service (its variables, where its URLs point)
// is brought to one shape here, so the checks in manifests.test.ts read the same for both.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchFlags } from '@murmur/core';
import { parse, parseAllDocuments } from 'yaml';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BASE_DIR = 'deploy/base';

export const readRepoFile = (rel: string): string => readFileSync(join(repoRoot, rel), 'utf8');
export const repoFileExists = (rel: string): boolean => existsSync(join(repoRoot, rel));

// ---------------------------------------------------------------------------------------------
// Processes and their entry files

/** The compiled entry of a deployable process, relative to the image's working directory. */
export function entryOf(process: string): string {
  return process === 'gateway' ? 'gateway/dist/main.js' : `services/${process}/dist/main.js`;
}

/**
 * The node flags a deployable process starts with: the gateway's heap floor and young-generation cap
 * (libs/core/src/heap.ts); none for the services.
 */
export function nodeFlagsOf(process: string): string[] {
  return process === 'gateway' ? launchFlags('gateway') : [];
}

/** The command that starts a deployable process: `node <flags> <entry>`. */
export function nodeCommandOf(process: string): string[] {
  return ['node', ...nodeFlagsOf(process), entryOf(process)];
}

/** `services/identity/dist/main.js` → `services/identity/src/main.ts` (what tsc -b compiles it from). */
export function sourceOf(entry: string): string {
  return entry.replace(/\/dist\/main\.js$/, '/src/main.ts');
}

/** Every process the repository can start on its own: the gateway and each services/<name> with a main. */
export function processesWithEntry(): string[] {
  const services = repoFileExists('services')
    ? readdirSync(join(repoRoot, 'services')).filter((name) => repoFileExists(sourceOf(entryOf(name))))
    : [];
  return [...(repoFileExists(sourceOf(entryOf('gateway'))) ? ['gateway'] : []), ...services].sort();
}

// ---------------------------------------------------------------------------------------------
// Environment

/** A variable's value as the manifest states it, or the fact that the operator supplies it. */
export type EnvValue =
  { kind: 'value'; value: string } | { kind: 'operator'; required: boolean; from: string };
export type Env = Map<string, EnvValue>;

/** A literal value as the service will see it (loadConfig treats empty as unset). */
export function literal(env: Env, name: string): string | undefined {
  const v = env.get(name);
  return v?.kind === 'value' && v.value.trim() !== '' ? v.value : undefined;
}

/**
 * Hosts and ports a connection URL names: `mongodb://a:27017,b/db`, `nats://n1:4222,nats://n2:4222`,
 * `http://identity:8081`. `mongodb+srv://` names a DNS record, not hosts: none.
 */
export function urlTargets(url: string): { host: string; port: number }[] {
  const defaults: Record<string, number> = { http: 80, https: 443, mongodb: 27017, nats: 4222 };
  return url.split(/,(?=[a-z][a-z0-9+.-]*:\/\/)/i).flatMap((part) => {
    const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/?#]*)/i.exec(part.trim());
    if (!m || m[1]!.toLowerCase() === 'mongodb+srv') return [];
    const scheme = m[1]!.toLowerCase();
    return m[2]!.split(',').map((hostPort) => {
      const hp = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostPort)!;
      return { host: hp[1]!, port: hp[2] ? Number(hp[2]) : (defaults[scheme] ?? 0) };
    });
  });
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target?: number; published?: string | number })[];
  expose?: (string | number)[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  tmpfs?: string | string[];
  read_only?: boolean;
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function loadCompose(): ComposeFile {
  // Compose merges `<<: *anchor` keys; so must we.
  return parse(readRepoFile('docker-compose.yml'), { merge: true }) as ComposeFile;
}

const WHOLE_INTERPOLATION = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}$/;
const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/**
 * A compose service's environment. `NAME:` (no value) and `${NAME}` come from the shell or .env
 * when set; `${NAME:?message}` must be set; `${NAME:-default}` is the default unless overridden.
 */
export function composeEnv(service: ComposeService): Env {
  const env: Env = new Map();
  const entries: [string, unknown][] = Array.isArray(service.environment)
    ? service.environment.map((e) =>
        e.includes('=') ? [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)] : [e, null],
      )
    : Object.entries(service.environment ?? {});
  for (const [name, raw] of entries) {
    if (raw === null || raw === undefined) {
      env.set(name, { kind: 'operator', required: false, from: 'the shell or .env' });
      continue;
    }
    const text = String(raw);
    const whole = WHOLE_INTERPOLATION.exec(text);
    if (whole && (whole[2] === undefined || whole[2].endsWith('?'))) {
      env.set(name, { kind: 'operator', required: whole[2] !== undefined, from: `\${${whole[1]}}` });
      continue;
    }
    const value = text.replace(
      INTERPOLATION,
      (_m, _name, op: string | undefined, fallback: string | undefined) =>
        op?.endsWith('-') ? (fallback ?? '') : '',
    );
    env.set(name, { kind: 'value', value });
  }
  return env;
}

export function composeCommand(service: ComposeService): string[] {
  const c = service.command;
  return c === undefined ? [] : Array.isArray(c) ? c : c.split(/\s+/);
}

/** Container paths backed by a volume or a tmpfs. */
export function composeWritablePaths(service: ComposeService): string[] {
  const tmpfs =
    service.tmpfs === undefined ? [] : Array.isArray(service.tmpfs) ? service.tmpfs : [service.tmpfs];
  const volumes = (service.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[1] : v.target));
  return [...tmpfs.map((t) => t.split(':')[0]), ...volumes].filter((p): p is string => typeof p === 'string');
}

/** Files of this repository mounted into the container (`./path:/target[:ro]`), by repository path. */
export function composeBindMounts(
  service: ComposeService,
): { source: string; target: string; readOnly: boolean }[] {
  return (service.volumes ?? []).flatMap((v) => {
    const [source, target, mode] =
      typeof v === 'string' ? v.split(':') : [v.source, v.target, v.type === 'bind' ? 'rw' : undefined];
    if (!source?.startsWith('./') || target === undefined) return [];
    return [{ source: posix.normalize(source), target, readOnly: mode === 'ro' }];
  });
}

/** Ports this service says it listens on inside its network (`expose`, or the container side of `ports`). */
export function composeDeclaredPorts(service: ComposeService): number[] {
  const exposed = (service.expose ?? []).map(Number);
  const published = (service.ports ?? []).map((p) =>
    typeof p === 'object' ? Number(p.target) : Number(String(p).split('/')[0]!.split(':').pop()),
  );
  return [...exposed, ...published];
}

// ---------------------------------------------------------------------------------------------
// deploy/base

export interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
export interface HttpProbe {
  httpGet?: { path?: string; port?: number | string };
  exec?: { command?: string[] };
  tcpSocket?: { port?: number | string };
}
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef; fieldRef?: { fieldPath: string } };
  }[];
  envFrom?: {
    configMapRef?: { name: string; optional?: boolean };
    secretRef?: { name: string; optional?: boolean };
  }[];
  readinessProbe?: HttpProbe;
  livenessProbe?: HttpProbe;
  startupProbe?: HttpProbe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
  };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: {
    name: string;
    emptyDir?: object;
    configMap?: { name: string };
    secret?: { secretName: string };
  }[];
}
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: unknown;
}
export interface Workload extends K8sObject {
  kind: 'Deployment' | 'StatefulSet';
  spec: {
    replicas?: number;
    serviceName?: string;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    volumeClaimTemplates?: { metadata: { name: string } }[];
  };
}
export interface ServiceObject extends K8sObject {
  kind: 'Service';
  spec: {
    clusterIP?: string;
    selector?: Record<string, string>;
    ports: { name?: string; port: number; targetPort?: number | string }[];
  };
}
export interface PodDisruptionBudget extends K8sObject {
  kind: 'PodDisruptionBudget';
  spec: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector: { matchLabels: Record<string, string> };
  };
}
export interface Kustomization {
  resources?: string[];
  configMapGenerator?: { name: string; files?: string[]; literals?: string[] }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  namespace?: string;
}
export interface Base {
  kustomization: Kustomization;
  /** Documents of the files kustomization.yaml lists, and the ConfigMaps its configMapGenerator makes. */
  objects: K8sObject[];
  /** Documents of `*.example.yaml`: templates the operator copies (the Secret), never applied as they are. */
  templates: K8sObject[];
  /** Every YAML file in the folder. */
  files: string[];
}

function parseDocuments(rel: string): K8sObject[] {
  return parseAllDocuments(readRepoFile(rel)).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${rel}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

export function loadBase(): Base {
  const kustomization = parse(readRepoFile(`${BASE_DIR}/kustomization.yaml`)) as Kustomization;
  const files = readdirSync(join(repoRoot, BASE_DIR)).filter((f) => /\.ya?ml$/.test(f));
  const generated = (kustomization.configMapGenerator ?? []).map((g): K8sObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: g.name },
    data: Object.fromEntries([
      ...(g.files ?? []).map((f) => {
        // `key=path` or `path` (the key is the file name).
        const [key, path] = f.includes('=') ? f.split('=', 2) : [posix.basename(f), f];
        return [key!, readRepoFile(`${BASE_DIR}/${path}`)];
      }),
      ...(g.literals ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    ]),
  }));
  const objects = (kustomization.resources ?? [])
    .filter((f) => repoFileExists(`${BASE_DIR}/${f}`))
    .flatMap((f) => parseDocuments(`${BASE_DIR}/${f}`))
    .concat(generated);
  const templates = files
    .filter((f) => /\.example\.ya?ml$/.test(f))
    .flatMap((f) => parseDocuments(`${BASE_DIR}/${f}`));
  return { kustomization, objects, templates, files };
}

export function ofKind<T extends K8sObject>(objects: K8sObject[], kind: T['kind']): T[] {
  return objects.filter((o): o is T => o.kind === kind);
}

export function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  return (
    selector !== undefined &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([k, v]) => labels[k] === v)
  );
}

/**
 * A container's environment: its ConfigMaps' keys and literal values are values; Secret keys are
 * supplied by the operator (required unless `optional`). References to missing maps, secrets or
 * keys are returned as problems.
 */
export function containerEnv(container: Container, base: Base): { env: Env; problems: string[] } {
  const env: Env = new Map();
  const problems: string[] = [];
  const configMap = (name: string) => ofKind(base.objects, 'ConfigMap').find((c) => c.metadata.name === name);
  const secret = (name: string) =>
    [...base.objects, ...base.templates].find((s) => s.kind === 'Secret' && s.metadata.name === name);
  const secretKeys = (s: K8sObject) => Object.keys({ ...s.data, ...s.stringData });

  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = configMap(from.configMapRef.name);
      if (!cm) problems.push(`envFrom ConfigMap ${from.configMapRef.name} is not in the base`);
      for (const [k, v] of Object.entries(cm?.data ?? {})) env.set(k, { kind: 'value', value: String(v) });
    }
    if (from.secretRef) {
      const s = secret(from.secretRef.name);
      if (!s) problems.push(`envFrom Secret ${from.secretRef.name} has no template in the base`);
      for (const k of s ? secretKeys(s) : []) {
        env.set(k, {
          kind: 'operator',
          required: !from.secretRef.optional,
          from: `Secret ${from.secretRef.name}`,
        });
      }
    }
  }
  for (const e of container.env ?? []) {
    const ref = e.valueFrom;
    if (e.value !== undefined) env.set(e.name, { kind: 'value', value: String(e.value) });
    else if (ref?.configMapKeyRef) {
      const value = configMap(ref.configMapKeyRef.name)?.data?.[ref.configMapKeyRef.key];
      if (value === undefined)
        problems.push(
          `${e.name}: ConfigMap key ${ref.configMapKeyRef.name}/${ref.configMapKeyRef.key} does not exist`,
        );
      else env.set(e.name, { kind: 'value', value: String(value) });
    } else if (ref?.secretKeyRef) {
      const s = secret(ref.secretKeyRef.name);
      if (!s || !secretKeys(s).includes(ref.secretKeyRef.key)) {
        problems.push(
          `${e.name}: Secret key ${ref.secretKeyRef.name}/${ref.secretKeyRef.key} is not in the Secret's template`,
        );
      }
      env.set(e.name, {
        kind: 'operator',
        required: !ref.secretKeyRef.optional,
        from: `Secret ${ref.secretKeyRef.name}`,
      });
    } else {
      env.set(e.name, { kind: 'operator', required: true, from: 'the pod (fieldRef)' });
    }
  }
  return { env, problems };
}

/**
 * Variables a container sets only so that Kubernetes can expand them into another variable's value
 * (`value: nats://reader:$(NATS_PASSWORD)@nats:4222`): pod plumbing, not configuration the process reads.
 */
export function expansionOnly(container: Container): Set<string> {
  const referenced = new Set<string>();
  for (const e of container.env ?? []) {
    for (const m of (e.value ?? '').matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) referenced.add(m[1]!);
  }
  return referenced;
}

/** A probe's or targetPort's port (a number or a container port's name) as a number. */
export function resolvePort(port: number | string | undefined, container: Container): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

// ---------------------------------------------------------------------------------------------
// Dockerfile

export interface DockerInstruction {
  op: string;
  args: string;
}

/** Instructions of the Dockerfile's last stage (the runtime image), continuation lines joined. */
export function runtimeStage(): DockerInstruction[] {
  const logical = readRepoFile('Dockerfile')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const instructions = logical.map((l) => {
    const m = /^(\S+)\s*(.*)$/.exec(l)!;
    return { op: m[1]!.toUpperCase(), args: m[2]! };
  });
  const lastFrom = instructions.map((i) => i.op).lastIndexOf('FROM');
  return instructions.slice(lastFrom);
}

/** The default of an `ARG name=value` in any stage. */
export function dockerfileArg(name: string): string | undefined {
  const m = new RegExp(`^ARG\\s+${name}=(\\S+)`, 'm').exec(readRepoFile('Dockerfile'));
  return m?.[1];
}

export function runtimeWorkdir(stage: DockerInstruction[]): string {
  return stage.filter((i) => i.op === 'WORKDIR').pop()?.args ?? '/';
}

export function exposedPorts(stage: DockerInstruction[]): Set<number> {
  const ports = new Set<number>();
  for (const i of stage.filter((x) => x.op === 'EXPOSE')) {
    for (const spec of i.args.split(/\s+/)) {
      const [from, to] = spec.split('/')[0]!.split('-').map(Number);
      for (let p = from!; p <= (to ?? from!); p++) ports.add(p);
    }
  }
  return ports;
}

export const resolveIn = (dir: string, path: string): string => posix.resolve(dir, path);

// ---------------------------------------------------------------------------------------------
// nats-server configuration

export interface NatsConfFacts {
  serverName?: string;
  client?: number;
  monitor?: number;
  jetstream: boolean;
  storeDir?: string;
  /** The cluster's route port, when the server is a cluster member. */
  cluster?: number;
  routes: string[];
  /** `password: $NAME` of each user: the environment variables the server needs. */
  passwordVars: string[];
  /** Passwords written into the file rather than taken from the environment. */
  literalPasswords: number;
}

/** What the checks need from a nats.conf, read with patterns (the files are rendered by deploy/src/access.ts). */
export function natsConfFacts(text: string): NatsConfFacts {
  const jetstream = /^jetstream\s*\{[^}]*\}/m.exec(text)?.[0];
  const cluster = /^cluster\s*\{[\s\S]*?^\}/m.exec(text)?.[0];
  const passwords = [...text.matchAll(/^\s*password:\s*(\S+)/gm)].map((m) => m[1]!);
  return {
    serverName: /^server_name:\s*(\S+)/m.exec(text)?.[1],
    client: Number(/^port:\s*(\d+)/m.exec(text)?.[1]) || undefined,
    monitor: Number(/^http_port:\s*(\d+)/m.exec(text)?.[1]) || undefined,
    jetstream: jetstream !== undefined,
    storeDir: /store_dir:\s*(\S+)/.exec(jetstream ?? '')?.[1],
    cluster: Number(/^\s*port:\s*(\d+)/m.exec(cluster ?? '')?.[1]) || undefined,
    routes: [...(/routes:\s*\[([^\]]*)\]/.exec(cluster ?? '')?.[1]?.matchAll(/\S+/g) ?? [])].map((m) => m[0]),
    passwordVars: passwords.filter((p) => p.startsWith('$')).map((p) => p.slice(1)),
    literalPasswords: passwords.filter((p) => !p.startsWith('$')).length,
  };
}
