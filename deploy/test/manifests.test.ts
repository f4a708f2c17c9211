// The deployment files must agree with the code: every variable a manifest sets is one the process
// reads (checked against its zod config schema), every required one is there, ports, probes and
// service URLs line up, and compose and Kubernetes run the same set of processes from the one image.
// Nothing here needs Docker or a cluster: the files are read as data.
import { describe, expect, it } from '@jest/globals';
import { feedsConfigSchema } from '@murmur/feeds';
import { gatewayConfigSchema } from '@murmur/gateway';
import { identityConfigSchema, identityService } from '@murmur/identity';
import { publishingConfigSchema } from '@murmur/publishing';
import { readerConfigSchema } from '@murmur/reader';
import {
  SERVICE_DEFAULT_PORTS,
  SERVICE_NAMES,
  servicePortVar,
  serviceUrlVar,
  type ServiceName,
} from '@murmur/platform';
import {
  BASE_DIR,
  composeCommand,
  composeDeclaredPorts,
  composeEnv,
  composeWritablePaths,
  containerEnv,
  dockerfileArg,
  entryOf,
  exposedPorts,
  literal,
  loadBase,
  loadCompose,
  ofKind,
  processesWithEntry,
  readRepoFile,
  repoFileExists,
  resolveIn,
  resolvePort,
  runtimeStage,
  runtimeWorkdir,
  selects,
  sourceOf,
  urlTargets,
  type Env,
  type PodDisruptionBudget,
  type ServiceObject,
  type Workload,
} from './support/manifests.js';

interface FieldSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: { message: string }[] } };
}
interface ConfigSchema {
  shape: Record<string, FieldSchema>;
}

/** The config schema of every deployable process. A new service adds its line here. */
const SCHEMAS: Record<string, ConfigSchema> = {
  identity: identityConfigSchema,
  feeds: feedsConfigSchema,
  publishing: publishingConfigSchema,
  reader: readerConfigSchema,
  gateway: gatewayConfigSchema,
};

/** The image every Murmur container runs (kustomization.yaml rewrites it to the operator's registry). */
const MURMUR_IMAGE = 'murmur';
const isService = (name: string): name is ServiceName => (SERVICE_NAMES as readonly string[]).includes(name);
const portVarOf = (process: string): string => (isService(process) ? servicePortVar(process) : 'PORT');

const compose = loadCompose();
const base = loadBase();
const runtime = runtimeStage();
const workdir = runtimeWorkdir(runtime);

const composeMurmur = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const deployments = ofKind<Workload>(base.objects, 'Deployment');
const statefulSets = ofKind<Workload>(base.objects, 'StatefulSet');
const k8sServices = ofKind<ServiceObject>(base.objects, 'Service');
const k8sMurmur = deployments.filter((d) =>
  d.spec.template.spec.containers.some((c) => c.image === MURMUR_IMAGE),
);
const mainContainer = (w: Workload) =>
  w.spec.template.spec.containers.find((c) => c.name === w.metadata.name)!;

/** Problems with one process's environment as a manifest sets it. */
function envProblems(process: string, env: Env): string[] {
  const schema = SCHEMAS[process];
  if (!schema) return [`${process} has no config schema in SCHEMAS (deploy/test/manifests.test.ts)`];
  const problems: string[] = [];
  for (const [name, value] of env) {
    const field = schema.shape[name];
    if (!field) {
      problems.push(`${name} is not a variable of ${process}'s config schema`);
      continue;
    }
    if (value.kind === 'value' && value.value.trim() !== '') {
      const parsed = field.safeParse(value.value);
      if (!parsed.success)
        problems.push(`${name}=${JSON.stringify(value.value)}: ${parsed.error?.issues[0]?.message}`);
    }
  }
  for (const [name, field] of Object.entries(schema.shape)) {
    if (field.safeParse(undefined).success) continue; // has a default or is optional
    const value = env.get(name);
    const provided = value?.kind === 'value' ? value.value.trim() !== '' : value?.required === true;
    if (!provided) problems.push(`${name} is required by ${process}'s config schema and not provided`);
  }
  return problems;
}

/** The port a process listens on with this environment (its port variable, or the schema's default). */
function listenPort(process: string, env: Env): number {
  const field = SCHEMAS[process]?.shape[portVarOf(process)];
  if (!field) throw new Error(`${process}'s config schema has no ${portVarOf(process)}`);
  const parsed = field.safeParse(literal(env, portVarOf(process)));
  if (!parsed.success || typeof parsed.data !== 'number')
    throw new Error(`${process}: no usable ${portVarOf(process)}`);
  return parsed.data;
}

/** The variables whose values are URLs of other parts of the deployment. */
function connectionUrls(env: Env): [string, string][] {
  const names = ['STORE_URL', 'BUS_URL', ...SERVICE_NAMES.map((n) => serviceUrlVar(n))];
  return names.flatMap((n) => {
    const v = literal(env, n);
    return v === undefined ? [] : [[n, v] as [string, string]];
  });
}

/** Where the process keeps files: DATA_DIR under the image's working directory, if it reads it. */
function dataDir(process: string, env: Env): string | undefined {
  const field = SCHEMAS[process]?.shape.DATA_DIR;
  if (!field) return undefined;
  const parsed = field.safeParse(literal(env, 'DATA_DIR'));
  return parsed.success ? resolveIn(workdir, String(parsed.data)) : undefined;
}

describe('the image', () => {
  it('is built with the pnpm version package.json pins', () => {
    const pinned = (JSON.parse(readRepoFile('package.json')) as { packageManager: string }).packageManager;
    expect(`pnpm@${dockerfileArg('PNPM_VERSION')}`).toBe(pinned);
  });

  it('runs as a non-root numeric user, under tini, in production mode', () => {
    const user = runtime.filter((i) => i.op === 'USER').pop()?.args;
    expect(user).toMatch(/^[1-9]\d*(:\d+)?$/);
    expect(runtime.find((i) => i.op === 'ENTRYPOINT')?.args).toMatch(/tini/);
    expect(runtime.some((i) => i.op === 'ENV' && /NODE_ENV=production/.test(i.args))).toBe(true);
    expect(runtime.some((i) => i.op === 'HEALTHCHECK')).toBe(false);
  });

  it('exposes the port of every process the manifests run', () => {
    const exposed = exposedPorts(runtime);
    const ports = composeMurmur.map(([name, s]) => listenPort(name, composeEnv(s)));
    expect(ports.filter((p) => !exposed.has(p))).toEqual([]);
  });

  it('leaves local installs, builds, data, git and .env files out of the build context', () => {
    const ignored = readRepoFile('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/dist', 'data', '.git', '.env'])
      expect(ignored).toContain(entry);
  });
});

describe('which processes are deployed', () => {
  const composeNames = composeMurmur.map(([name]) => name).sort();
  const k8sNames = k8sMurmur.map((d) => d.metadata.name).sort();

  it('compose and kustomize run the same Murmur processes', () => {
    expect(composeNames).toEqual(k8sNames);
  });

  it('every process with an entry point (gateway, services/*/src/main.ts) is deployed', () => {
    expect(composeNames).toEqual(processesWithEntry());
  });

  it('every deployed process has a config schema to check against', () => {
    expect(composeNames.filter((n) => !SCHEMAS[n])).toEqual([]);
  });

  it("identity's service definition loads the schema checked here", () => {
    expect(identityService.configSchema).toBe(identityConfigSchema);
  });

  it('services listen on their documented default ports', () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const expected = isService(name) ? SERVICE_DEFAULT_PORTS[name] : 8080;
      expect([name, schema.shape[portVarOf(name)]?.safeParse(undefined).data]).toEqual([name, expected]);
    }
  });
});

describe('docker-compose.yml', () => {
  const find = (name: string) => compose.services[name];

  describe.each(composeMurmur)('%s', (name, service) => {
    const env = composeEnv(service);

    it('sets only variables its config schema reads, with valid values, and every required one', () => {
      expect(envProblems(name, env)).toEqual([]);
    });

    it('is built from the Dockerfile and runs its own entry file', () => {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      expect(build?.context).toBe('.');
      expect(build && 'dockerfile' in build ? build.dockerfile : 'Dockerfile').toBe('Dockerfile');
      expect(service.entrypoint).toBeUndefined(); // tini stays PID 1
      expect(composeCommand(service)).toEqual(['node', entryOf(name)]);
      expect(repoFileExists(sourceOf(entryOf(name)))).toBe(true);
    });

    it('has a health check on /readyz at the port it listens on', () => {
      const test = [service.healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`127.0.0.1:${listenPort(name, env)}/readyz`);
    });

    it('points its URLs at compose services, on the ports they listen on, and waits for them to be healthy', () => {
      const problems: string[] = [];
      for (const [variable, url] of connectionUrls(env)) {
        for (const { host, port } of urlTargets(url)) {
          const target = find(host);
          if (!target) {
            problems.push(`${variable}: no compose service ${host}`);
            continue;
          }
          const ports =
            target.build !== undefined
              ? [listenPort(host, composeEnv(target))]
              : composeDeclaredPorts(target);
          if (!ports.includes(port))
            problems.push(`${variable}: ${host} listens on ${ports.join(', ')}, not ${port}`);
          const dependsOn = Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {});
          if (dependsOn[host]?.condition !== 'service_healthy')
            problems.push(`depends_on ${host} is not service_healthy`);
          if (!target.healthcheck) problems.push(`${host} has no healthcheck to wait for`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('has a read-only root file system with /tmp and its DATA_DIR writable', () => {
      expect(service.read_only).toBe(true);
      const writable = composeWritablePaths(service);
      expect(writable).toContain('/tmp');
      const dir = dataDir(name, env);
      if (dir !== undefined) expect(writable).toContain(dir);
    });
  });

  it('publishes the gateway on its port, and nothing else', () => {
    const gateway = find('gateway')!;
    const published = Object.entries(compose.services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([n]) => n)).toEqual(['gateway']);
    expect(composeDeclaredPorts(gateway)).toEqual([listenPort('gateway', composeEnv(gateway))]);
  });

  it('gives the gateway the URL of every service it runs', () => {
    const gatewayEnv = composeEnv(find('gateway')!);
    const services = composeMurmur.map(([n]) => n).filter(isService);
    expect(services.filter((s) => literal(gatewayEnv, serviceUrlVar(s)) === undefined)).toEqual([]);
  });

  it('keeps MongoDB and JetStream data on named volumes, with health checks', () => {
    const mongodb = find('mongodb')!;
    expect(mongodb.image).toMatch(/^mongo:7/);
    expect(composeWritablePaths(mongodb)).toContain('/data/db');
    expect(mongodb.healthcheck?.test).toBeDefined();

    const nats = find('nats')!;
    const args = composeCommand(nats);
    expect(args.some((a) => a === '-js' || a === '--jetstream')).toBe(true);
    const storeDir = args[args.findIndex((a) => a === '-sd' || a === '--store_dir') + 1];
    expect(composeWritablePaths(nats)).toContain(storeDir);
    const monitor = args[args.findIndex((a) => a === '-m' || a === '--http_port') + 1];
    expect([nats.healthcheck?.test ?? []].flat().join(' ')).toContain(`:${monitor}/healthz`);

    const named = Object.keys(compose.volumes ?? {});
    for (const s of [mongodb, nats]) {
      const sources = (s.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[0] : v.source));
      expect(sources.every((v) => v !== undefined && named.includes(v))).toBe(true);
    }
  });
});

describe('deploy/base (kustomize)', () => {
  it('lists resources that exist, and every manifest in the folder is listed or an *.example.yaml template', () => {
    const resources = base.kustomization.resources ?? [];
    expect(resources.filter((f) => !repoFileExists(`${BASE_DIR}/${f}`))).toEqual([]);
    const unlisted = base.files.filter(
      (f) => f !== 'kustomization.yaml' && !/\.example\.ya?ml$/.test(f) && !resources.includes(f),
    );
    expect(unlisted).toEqual([]);
  });

  it('is namespace-free, with one object per kind and name', () => {
    expect(base.kustomization.namespace).toBeUndefined();
    expect(base.objects.filter((o) => o.metadata.namespace !== undefined)).toEqual([]);
    const ids = base.objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('does not apply the Secret: it is a template, and its placeholder admin token is refused by identity', () => {
    expect(ofKind(base.objects, 'Secret')).toEqual([]);
    const secret = base.templates.find((t) => t.kind === 'Secret' && t.metadata.name === 'murmur-secrets');
    const token = secret?.stringData?.MURMUR_ADMIN_TOKEN;
    expect(token).toMatch(/CHANGE-ME/);
    expect(identityConfigSchema.shape.MURMUR_ADMIN_TOKEN.safeParse(token).success).toBe(false);
  });

  it('rewrites the Murmur image through kustomization images', () => {
    expect(base.kustomization.images?.map((i) => i.name)).toContain(MURMUR_IMAGE);
  });

  describe.each(k8sMurmur.map((d) => [d.metadata.name, d] as const))('Deployment %s', (name, deployment) => {
    const container = mainContainer(deployment);
    const { env, problems: refProblems } = containerEnv(container, base);
    const pod = deployment.spec.template.spec;

    it('reads only ConfigMaps, Secrets and keys that exist', () => {
      expect(refProblems).toEqual([]);
    });

    it('sets only variables its config schema reads, with valid values, and every required one', () => {
      expect(envProblems(name, env)).toEqual([]);
    });

    it('runs its own entry file from the Murmur image, under tini', () => {
      expect(container.image).toBe(MURMUR_IMAGE);
      expect(container.command).toBeUndefined(); // keeps the image's ENTRYPOINT (tini)
      expect(container.args).toEqual(['node', entryOf(name)]);
      expect(repoFileExists(sourceOf(entryOf(name)))).toBe(true);
    });

    it('declares the port it listens on, probes /healthz and /readyz there, and its Service targets it', () => {
      const port = listenPort(name, env);
      expect(container.ports?.map((p) => p.containerPort)).toEqual([port]);
      // The gateway's /readyz aggregates every service: as a readiness probe it would take all gateway
      // replicas out of rotation when one service is down, turning a partial outage into a total one.
      expect(container.readinessProbe?.httpGet?.path).toBe(name === 'gateway' ? '/healthz' : '/readyz');
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      if (container.startupProbe) expect(container.startupProbe.httpGet?.path).toBe('/healthz');
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
        if (probe) expect(resolvePort(probe.httpGet?.port, container)).toBe(port);
      }
      const service = k8sServices.find((s) => s.metadata.name === name);
      expect(selects(service?.spec.selector, deployment.spec.template.metadata.labels)).toBe(true);
      expect(service?.spec.ports.map((p) => resolvePort(p.targetPort ?? p.port, container))).toEqual([port]);
    });

    it('selects its own pods and runs at least two of them', () => {
      expect(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(
        true,
      );
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    });

    it('runs as the image user, non-root, read-only, with /tmp and its DATA_DIR on emptyDirs', () => {
      const imageUser = Number(
        runtime
          .filter((i) => i.op === 'USER')
          .pop()
          ?.args.split(':')[0],
      );
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBe(imageUser);
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
      const emptyDirs = new Set((pod.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
      const writable = (container.volumeMounts ?? [])
        .filter((m) => emptyDirs.has(m.name))
        .map((m) => m.mountPath);
      expect(writable).toContain('/tmp');
      const dir = dataDir(name, env);
      if (dir !== undefined) expect(writable).toContain(dir);
    });

    it('requests CPU and memory and limits memory', () => {
      expect(container.resources?.requests?.cpu).toBeDefined();
      expect(container.resources?.requests?.memory).toBeDefined();
      expect(container.resources?.limits?.memory).toBeDefined();
    });

    it('points its URLs at Services, on ports that reach the right pods', () => {
      const problems: string[] = [];
      for (const [variable, url] of connectionUrls(env)) {
        for (const { host, port } of urlTargets(url)) {
          const service = k8sServices.find((s) => s.metadata.name === host);
          const servicePort = service?.spec.ports.find((p) => p.port === port);
          if (!service || !servicePort) {
            problems.push(`${variable}: no Service ${host} with port ${port}`);
            continue;
          }
          const workloads = [...deployments, ...statefulSets].filter((w) =>
            selects(service.spec.selector, w.spec.template.metadata.labels),
          );
          const reaches = workloads.some((w) =>
            w.spec.template.spec.containers.some(
              (c) =>
                c.ports?.some((p) => p.containerPort === resolvePort(servicePort.targetPort ?? port, c)) ===
                true,
            ),
          );
          if (!reaches) problems.push(`${variable}: Service ${host}:${port} reaches no container port`);
          const owner = SERVICE_NAMES.find((s) => serviceUrlVar(s) === variable);
          if (owner && !workloads.some((w) => w.metadata.name === owner)) {
            problems.push(`${variable}: Service ${host} does not select the ${owner} Deployment`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  });

  it('gives the gateway the URL of every service it runs', () => {
    const gateway = k8sMurmur.find((d) => d.metadata.name === 'gateway')!;
    const { env } = containerEnv(mainContainer(gateway), base);
    const services = k8sMurmur.map((d) => d.metadata.name).filter(isService);
    expect(services.filter((s) => literal(env, serviceUrlVar(s)) === undefined)).toEqual([]);
  });

  it('disruption budgets select an existing Deployment and leave room to evict', () => {
    for (const pdb of ofKind<PodDisruptionBudget>(base.objects, 'PodDisruptionBudget')) {
      const target = deployments.find((d) =>
        selects(pdb.spec.selector.matchLabels, d.spec.template.metadata.labels),
      );
      expect([pdb.metadata.name, target?.metadata.name]).toEqual([pdb.metadata.name, expect.any(String)]);
      if (typeof pdb.spec.minAvailable === 'number') {
        expect(pdb.spec.minAvailable).toBeLessThan(target?.spec.replicas ?? 1);
      }
    }
  });

  describe.each(statefulSets.map((s) => [s.metadata.name, s] as const))('StatefulSet %s', (name, set) => {
    it('is governed by a headless Service of its name and keeps its data on a volume claim', () => {
      const service = k8sServices.find((s) => s.metadata.name === set.spec.serviceName);
      expect(set.spec.serviceName).toBe(name);
      expect(service?.spec.clusterIP).toBe('None');
      expect(selects(service?.spec.selector, set.spec.template.metadata.labels)).toBe(true);
      const claims = (set.spec.volumeClaimTemplates ?? []).map((c) => c.metadata.name);
      const mounts = mainContainer(set).volumeMounts?.map((m) => m.name) ?? [];
      expect(claims.length).toBeGreaterThan(0);
      expect(claims.filter((c) => !mounts.includes(c))).toEqual([]);
    });
  });

  it('runs MongoDB 7 with its data directory on the volume claim', () => {
    const mongodb = statefulSets.find((s) => s.metadata.name === 'mongodb')!;
    const container = mainContainer(mongodb);
    expect(container.image).toMatch(/^mongo:7/);
    expect(container.volumeMounts).toContainEqual(
      expect.objectContaining({ name: 'data', mountPath: '/data/db' }),
    );
    expect(container.ports?.map((p) => p.containerPort)).toEqual([27017]);
  });

  it('runs NATS with JetStream stored on the volume claim, probed on the monitoring port', () => {
    const nats = statefulSets.find((s) => s.metadata.name === 'nats')!;
    const container = mainContainer(nats);
    const configArg = [...(container.command ?? []), ...(container.args ?? [])].find((a) =>
      a.endsWith('.conf'),
    )!;
    const configMount = container.volumeMounts?.find((m) => configArg.startsWith(`${m.mountPath}/`));
    const volume = nats.spec.template.spec.volumes?.find((v) => v.name === configMount?.name);
    const config = ofKind(base.objects, 'ConfigMap').find((c) => c.metadata.name === volume?.configMap?.name);
    const text = config?.data?.[configArg.slice(configMount!.mountPath.length + 1)] ?? '';

    const storeDir = /store_dir:\s*(\S+)/.exec(/jetstream\s*\{[^}]*\}/.exec(text)?.[0] ?? '')?.[1];
    const dataMount = container.volumeMounts?.find((m) => m.name === 'data')?.mountPath;
    expect(storeDir).toBeDefined();
    expect(dataMount && storeDir?.startsWith(dataMount)).toBe(true);

    const monitor = Number(/http_port:\s*(\d+)/.exec(text)?.[1]);
    const client = Number(/^port:\s*(\d+)/m.exec(text)?.[1]);
    expect(container.ports?.map((p) => p.containerPort).sort()).toEqual([client, monitor].sort());
    expect([client, monitor]).toEqual([4222, 8222]);
    for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
      expect(probe?.httpGet?.path).toMatch(/^\/healthz/);
      expect(resolvePort(probe?.httpGet?.port, container)).toBe(monitor);
    }
  });
});
