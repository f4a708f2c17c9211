// The deployment files must agree with the code: every variable a manifest sets is one the process
// reads (checked against its zod config schema), every required one is there, ports, probes and
// service URLs line up, and compose and Kubernetes run the same set of processes from the one image.
// Nothing here needs Docker or a cluster: the files are read as data.
import { describe, expect, it } from '@jest/globals';
import { feedsConfigSchema } from '@murmur/feeds';
import { microsubConfigSchema } from '@murmur/microsub';
import { pushConfigSchema } from '@murmur/push';
import { webmentionConfigSchema } from '@murmur/webmention';
import { federationConfigSchema } from '@murmur/federation';
import { websubConfigSchema } from '@murmur/websub';
import { archiveConfigSchema } from '@murmur/archive';
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
  heapFloorFlag,
} from '@murmur/core';
import {
  BASE_DIR,
  composeBindMounts,
  composeCommand,
  composeDeclaredPorts,
  composeEnv,
  composeWritablePaths,
  containerEnv,
  dockerfileArg,
  entryOf,
  expansionOnly,
  exposedPorts,
  literal,
  loadBase,
  loadCompose,
  natsConfFacts,
  nodeCommandOf,
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
  type ComposeService,
  type Env,
  type K8sObject,
  type PodDisruptionBudget,
  type ServiceObject,
  type Workload,
} from './support/manifests.js';
import { MONGO_AUTH_SOURCE, SERVICES, databaseOf, mongoPasswordVar, natsPasswordVar } from '../src/access.js';

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
  microsub: microsubConfigSchema,
  push: pushConfigSchema,
  webmention: webmentionConfigSchema,
  archive: archiveConfigSchema,
  publishing: publishingConfigSchema,
  federation: federationConfigSchema,
  websub: websubConfigSchema,
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
function envProblems(process: string, env: Env, plumbing: ReadonlySet<string> = new Set()): string[] {
  const schema = SCHEMAS[process];
  if (!schema) return [`${process} has no config schema in SCHEMAS (deploy/test/manifests.test.ts)`];
  const problems: string[] = [];
  for (const [name, value] of env) {
    const field = schema.shape[name];
    if (!field && plumbing.has(name)) {
      if (value.kind !== 'operator' || !value.from.startsWith('Secret'))
        problems.push(`${name} is expanded into another variable but does not come from a Secret`);
      continue;
    }
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
function listenPort(process: string, env: Env, variable = portVarOf(process)): number {
  const field = SCHEMAS[process]?.shape[variable];
  if (!field) throw new Error(`${process}'s config schema has no ${variable}`);
  const parsed = field.safeParse(literal(env, variable));
  if (!parsed.success || typeof parsed.data !== 'number')
    throw new Error(`${process}: no usable ${variable}`);
  return parsed.data;
}

/** Where a process answers /readyz: the gateway only on its internal port (never public). */
function readyzPort(process: string, env: Env): number {
  return process === 'gateway' ? listenPort(process, env, 'GATEWAY_INTERNAL_PORT') : listenPort(process, env);
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

  it('starts the single process and the gateway with their heap floors, and the services as node <entry>', () => {
    const [shell, , script] = JSON.parse(runtime.find((i) => i.op === 'CMD')?.args ?? '[]') as string[];
    expect(shell).toBe('/bin/sh');
    expect(script).toContain(`all) exec node ${heapFloorFlag('single')} cli/dist/main.js start ;;`);
    expect(script).toContain(`gateway) exec ${nodeCommandOf('gateway').join(' ')} ;;`);
    expect(script).toContain('*) exec node "services/$SERVICE/dist/main.js" ;;');
  });

  it('is what `npm start` runs too: the single process with its heap floor', () => {
    const launcher = readRepoFile('scripts/murmur.mjs');
    expect(launcher).toContain(`const SINGLE_PROCESS_NODE_FLAGS = ['${heapFloorFlag('single')}'];`);
    expect(launcher).toMatch(
      /startForeground\(join\(root, 'cli\/dist\/main\.js'\), \['start', \.\.\.rest\], SINGLE_PROCESS_NODE_FLAGS\)/,
    );
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
      expect(composeCommand(service)).toEqual(nodeCommandOf(name));
      expect(repoFileExists(sourceOf(entryOf(name)))).toBe(true);
    });

    it('has a health check on /readyz at the port it serves it on', () => {
      const test = [service.healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`127.0.0.1:${readyzPort(name, env)}/readyz`);
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
    const configPath = args[args.findIndex((a) => a === '-c' || a === '--config') + 1];
    const configFile = composeBindMounts(nats).find((m) => m.target === configPath);
    expect(configFile?.readOnly).toBe(true);
    const conf = natsConfFacts(readRepoFile(configFile!.source));
    expect(conf.jetstream).toBe(true);
    expect(conf.client).toBe(4222);
    expect(composeDeclaredPorts(nats).sort()).toEqual([conf.client, conf.monitor].sort());
    expect([nats.healthcheck?.test ?? []].flat().join(' ')).toContain(`:${conf.monitor}/healthz`);

    const named = Object.keys(compose.volumes ?? {});
    const volumeAt = (s: ComposeService, target: string) =>
      (s.volumes ?? [])
        .map((v) => (typeof v === 'string' ? { source: v.split(':')[0], target: v.split(':')[1] } : v))
        .find((v) => v.target === target)?.source;
    expect(named).toContain(volumeAt(mongodb, '/data/db'));
    expect(named).toContain(volumeAt(nats, conf.storeDir!));
    // Anything else mounted into them is a file of this repository, read-only.
    for (const s of [mongodb, nats, find('mongodb-users')!]) {
      for (const m of composeBindMounts(s)) {
        expect([m.source, repoFileExists(m.source), m.readOnly]).toEqual([m.source, true, true]);
      }
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
      expect(envProblems(name, env, expansionOnly(container))).toEqual([]);
    });

    it('runs its own entry file from the Murmur image, under tini', () => {
      expect(container.image).toBe(MURMUR_IMAGE);
      expect(container.command).toBeUndefined(); // keeps the image's ENTRYPOINT (tini)
      expect(container.args).toEqual(nodeCommandOf(name));
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

  it('disruption budgets select an existing workload and leave room to evict', () => {
    for (const pdb of ofKind<PodDisruptionBudget>(base.objects, 'PodDisruptionBudget')) {
      const target = [...deployments, ...statefulSets].find((d) =>
        selects(pdb.spec.selector.matchLabels, d.spec.template.metadata.labels),
      );
      expect([pdb.metadata.name, target?.metadata.name]).toEqual([pdb.metadata.name, expect.any(String)]);
      if (typeof pdb.spec.minAvailable === 'number') {
        expect(pdb.spec.minAvailable).toBeLessThan(target?.spec.replicas ?? 1);
      }
      if (typeof pdb.spec.maxUnavailable === 'number') expect(pdb.spec.maxUnavailable).toBeGreaterThan(0);
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
    const conf = natsConfFacts(config?.data?.[configArg.slice(configMount!.mountPath.length + 1)] ?? '');

    const dataMount = container.volumeMounts?.find((m) => m.name === 'data')?.mountPath;
    expect(conf.jetstream).toBe(true);
    expect(dataMount && conf.storeDir?.startsWith(dataMount)).toBe(true);
    expect([conf.client, conf.monitor, conf.cluster]).toEqual([4222, 8222, 6222]);
    expect(container.ports?.map((p) => p.containerPort).sort()).toEqual(
      [conf.client, conf.monitor, conf.cluster].sort(),
    );
    for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
      expect(probe?.httpGet?.path).toMatch(/^\/healthz/);
      expect(resolvePort(probe?.httpGet?.port, container)).toBe(conf.monitor);
    }
  });

  it('runs NATS as a three-node JetStream cluster whose members find each other before they are ready', () => {
    const nats = statefulSets.find((s) => s.metadata.name === 'nats')! as Workload & {
      spec: { podManagementPolicy?: string };
    };
    const conf = natsConfFacts(
      ofKind(base.objects, 'ConfigMap').find((c) => c.metadata.name === 'nats-config')!.data!['nats.conf']!,
    );
    const service = k8sServices.find((s) => s.metadata.name === nats.spec.serviceName)! as ServiceObject & {
      spec: { publishNotReadyAddresses?: boolean };
    };
    expect(nats.spec.replicas).toBe(3);
    expect(conf.routes).toEqual(
      Array.from({ length: 3 }, (_, i) => `nats-route://nats-${i}.${service.metadata.name}:${conf.cluster}`),
    );
    expect(service.spec.ports.map((p) => p.port)).toContain(conf.cluster);
    expect(service.spec.publishNotReadyAddresses).toBe(true);
    expect(nats.spec.podManagementPolicy).toBe('Parallel');
    expect(mainContainer(nats).env).toContainEqual(
      expect.objectContaining({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }),
    );
    expect(conf.serverName).toBe('$POD_NAME');
  });
});

// -------------------------------------------------------------------------------------------------
// Security: who may talk to whom, with which credentials, and whose X-Forwarded-For is believed.

interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: unknown;
}
interface NetworkPolicy extends K8sObject {
  kind: 'NetworkPolicy';
  spec: {
    podSelector: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    ingress?: { from?: NetworkPolicyPeer[]; ports?: { port?: number | string }[] }[];
  };
}

/** The label Prometheus pods carry to be let in to /metrics and NATS monitoring (network-policies.yaml). */
const MONITORING = { 'murmur-monitoring': 'true' };
const policies = ofKind<NetworkPolicy>(base.objects, 'NetworkPolicy');
const murmurServices = k8sMurmur.filter((d) => isService(d.metadata.name));
const workloadNamed = (name: string) =>
  [...deployments, ...statefulSets].find((w) => w.metadata.name === name)!;
const podLabels = (w: Workload) => w.spec.template.metadata.labels;
const isMonitoring = (peer: NetworkPolicyPeer) =>
  peer.namespaceSelector !== undefined &&
  JSON.stringify(peer.podSelector?.matchLabels) === JSON.stringify(MONITORING);
/** Policies that select this workload's pods. */
const policiesOf = (w: Workload) =>
  policies.filter(
    (p) =>
      Object.keys(p.spec.podSelector.matchLabels ?? {}).length > 0 &&
      selects(p.spec.podSelector.matchLabels, podLabels(w)),
  );
/** The ports a policy rule admits, as container port numbers of the workload's main container. */
const rulePorts = (rule: { ports?: { port?: number | string }[] }, w: Workload) =>
  (rule.ports ?? []).map((p) => resolvePort(p.port, mainContainer(w)));
/** Which of the base's workloads a peer (a pod selector in this namespace) matches. */
const peerWorkloads = (peer: NetworkPolicyPeer) =>
  [...deployments, ...statefulSets, ...jobs]
    .filter(
      (w) => peer.namespaceSelector === undefined && selects(peer.podSelector?.matchLabels, podLabels(w)),
    )
    .map((w) => w.metadata.name)
    .sort();
const jobs = ofKind<K8sObject>(base.objects, 'Job') as unknown as Workload[];

/** `nats://user:$(X)@host` or `mongodb://user:${X:?…}@host/db?…` → its parts, the password as written. */
function credentialsOf(
  url: string | undefined,
): { user: string; password: string; rest: string } | undefined {
  const m = /^[a-z+]+:\/\/([^:@/]+):([^@]+)@(.*)$/.exec(url ?? '');
  return m ? { user: m[1]!, password: m[2]!, rest: m[3]! } : undefined;
}

/** The raw value of a compose variable, before interpolation. */
const composeRaw = (service: ComposeService, name: string): string | undefined => {
  const env = service.environment;
  const value = Array.isArray(env) ? undefined : env?.[name];
  return value === null || value === undefined ? undefined : String(value);
};
const requiredInterpolation = (variable: string) => new RegExp(`^\\$\\{${variable}:\\?[^}]*\\}$`);

describe('network policies (deploy/base/network-policies.yaml)', () => {
  it('deny all ingress in the namespace by default', () => {
    const denyAll = policies.filter(
      (p) =>
        Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 &&
        p.spec.policyTypes?.includes('Ingress') &&
        (p.spec.ingress ?? []).length === 0,
    );
    expect(denyAll).toHaveLength(1);
    expect(base.kustomization.resources).toContain('network-policies.yaml');
  });

  it('admit anyone to the gateway, on its HTTP port only', () => {
    const gateway = workloadNamed('gateway');
    const rules = policiesOf(gateway).flatMap((p) => p.spec.ingress ?? []);
    expect(rules).toHaveLength(1);
    expect(rules[0]!.from).toBeUndefined();
    expect(rulePorts(rules[0]!, gateway)).toEqual([
      listenPort('gateway', containerEnv(mainContainer(gateway), base).env),
    ]);
  });

  describe.each(murmurServices.map((d) => [d.metadata.name, d] as const))('%s', (name, deployment) => {
    it('accepts only the gateway (and Prometheus by its label), on its HTTP port', () => {
      const rules = policiesOf(deployment).flatMap((p) => p.spec.ingress ?? []);
      expect(rules.length).toBeGreaterThan(0);
      const port = listenPort(name, containerEnv(mainContainer(deployment), base).env);
      for (const rule of rules) {
        expect(rulePorts(rule, deployment)).toEqual([port]);
        const from = rule.from ?? [];
        expect(from.length).toBeGreaterThan(0);
        for (const peer of from) {
          if (isMonitoring(peer)) continue;
          expect(peer.ipBlock).toBeUndefined();
          expect(peerWorkloads(peer)).toEqual(['gateway']);
        }
      }
    });

    it('is labelled as a service, so that the NATS and MongoDB policies admit it', () => {
      expect(podLabels(deployment)['app.kubernetes.io/component']).toBe('service');
    });
  });

  it.each(['nats', 'mongodb'])(
    'admit to %s only Murmur services (and NATS members, the users Job)',
    (name) => {
      const set = workloadNamed(name);
      const rules = policiesOf(set).flatMap((p) => p.spec.ingress ?? []);
      expect(rules.length).toBeGreaterThan(0);
      const services = murmurServices.map((d) => d.metadata.name);
      const allowedExtra = name === 'nats' ? ['nats'] : ['mongodb-users'];
      const monitorPort = resolvePort('monitor', mainContainer(set));
      for (const rule of rules) {
        for (const peer of rule.from ?? [{}]) {
          if (isMonitoring(peer)) {
            expect(rulePorts(rule, set)).toEqual([monitorPort]);
            continue;
          }
          const admitted = peerWorkloads(peer);
          expect(admitted.length).toBeGreaterThan(0);
          expect(admitted.filter((w) => !services.includes(w) && !allowedExtra.includes(w))).toEqual([]);
        }
      }
      // The gateway has no business with the bus or the store.
      const all = rules.flatMap((r) => (r.from ?? []).flatMap(peerWorkloads));
      expect(all).not.toContain('gateway');
      for (const s of services) expect(all).toContain(s);
    },
  );
});

describe('credentials', () => {
  describe.each(murmurServices.map((d) => [d.metadata.name, d] as const))(
    'Kubernetes: %s',
    (name, deployment) => {
      const container = mainContainer(deployment);
      const fromSecret = (variable: string) =>
        container.env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef;

      it.each([
        ['BUS_URL', natsPasswordVar, `nats:4222`],
        ['STORE_URL', mongoPasswordVar, `mongodb:27017/${databaseOf(name)}?authSource=${MONGO_AUTH_SOURCE}`],
      ] as const)(
        '%s names its own user, with the password from murmur-secrets',
        (variable, secretKey, rest) => {
          const creds = credentialsOf(container.env?.find((e) => e.name === variable)?.value);
          expect(creds?.user).toBe(name);
          expect(creds?.rest).toBe(rest);
          const expanded = /^\$\(([A-Z_]+)\)$/.exec(creds?.password ?? '')?.[1];
          expect(fromSecret(expanded ?? '')).toEqual({ name: 'murmur-secrets', key: secretKey(name) });
        },
      );
    },
  );

  describe.each(composeMurmur.filter(([n]) => isService(n)))('compose: %s', (name, service) => {
    it.each([
      ['BUS_URL', natsPasswordVar, `nats:4222`],
      ['STORE_URL', mongoPasswordVar, `mongodb:27017/${databaseOf(name)}?authSource=${MONGO_AUTH_SOURCE}`],
    ] as const)('%s names its own user, with the password from .env', (variable, passwordVar, rest) => {
      const creds = credentialsOf(composeRaw(service, variable));
      expect(creds?.user).toBe(name);
      expect(creds?.rest).toBe(rest);
      expect(creds?.password).toMatch(requiredInterpolation(passwordVar(name)));
    });

    it('waits for the MongoDB users to exist', () => {
      const dependsOn = Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {});
      expect(dependsOn['mongodb-users']?.condition).toBe('service_completed_successfully');
    });
  });

  it('the Secret template holds every password the manifests read', () => {
    const template = base.templates.find((t) => t.kind === 'Secret' && t.metadata.name === 'murmur-secrets')!;
    const keys = Object.keys(template.stringData ?? {});
    for (const s of SERVICES)
      expect(keys).toEqual(expect.arrayContaining([natsPasswordVar(s), mongoPasswordVar(s)]));
    expect(keys).toEqual(expect.arrayContaining(['MONGO_ROOT_USERNAME', 'MONGO_ROOT_PASSWORD']));
  });

  it('NATS gets every password its configuration names, from murmur-secrets (Kubernetes) or .env (compose)', () => {
    const nats = workloadNamed('nats');
    const k8sConf = natsConfFacts(
      ofKind(base.objects, 'ConfigMap').find((c) => c.metadata.name === 'nats-config')!.data!['nats.conf']!,
    );
    expect(k8sConf.passwordVars.sort()).toEqual(SERVICES.map(natsPasswordVar).sort());
    for (const variable of k8sConf.passwordVars) {
      expect(mainContainer(nats).env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef).toEqual({
        name: 'murmur-secrets',
        key: variable,
      });
    }
    const composeNats = compose.services.nats!;
    const source = composeBindMounts(composeNats).find((m) => m.source.endsWith('nats.conf'))!.source;
    const composeConf = natsConfFacts(readRepoFile(source));
    expect(composeConf.passwordVars.sort()).toEqual(SERVICES.map(natsPasswordVar).sort());
    for (const variable of composeConf.passwordVars)
      expect(composeRaw(composeNats, variable)).toMatch(requiredInterpolation(variable));
  });

  it('the MongoDB users script gets every password it names, and root credentials, from the Secret or .env', () => {
    const script = readRepoFile('deploy/base/mongodb-users.js');
    const named = [...new Set([...script.matchAll(/MONGO_[A-Z]+_PASSWORD/g)].map((m) => m[0]))].sort();
    expect(named).toEqual(SERVICES.map(mongoPasswordVar).sort());

    const job = jobs.find((j) => j.metadata.name === 'mongodb-users')!;
    const container = job.spec.template.spec.containers[0]!;
    for (const variable of [...named, 'MONGO_ROOT_USERNAME', 'MONGO_ROOT_PASSWORD']) {
      expect(container.env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef).toEqual({
        name: 'murmur-secrets',
        key: variable,
      });
    }
    const file = container.command![container.command!.indexOf('--file') + 1]!;
    const mount = container.volumeMounts!.find((m) => file.startsWith(`${m.mountPath}/`))!;
    const volume = job.spec.template.spec.volumes!.find((v) => v.name === mount.name)!;
    const config = ofKind(base.objects, 'ConfigMap').find((c) => c.metadata.name === volume.configMap?.name);
    expect(config?.data?.[file.slice(mount.mountPath.length + 1)]).toBe(script);

    const mongodb = mainContainer(workloadNamed('mongodb'));
    expect(
      mongodb.env?.find((e) => e.name === 'MONGO_INITDB_ROOT_PASSWORD')?.valueFrom?.secretKeyRef?.key,
    ).toBe('MONGO_ROOT_PASSWORD');

    const users = compose.services['mongodb-users']!;
    for (const variable of [...named, 'MONGO_ROOT_PASSWORD'])
      expect(composeRaw(users, variable)).toMatch(requiredInterpolation(variable));
    expect(composeRaw(compose.services.mongodb!, 'MONGO_INITDB_ROOT_PASSWORD')).toMatch(
      requiredInterpolation('MONGO_ROOT_PASSWORD'),
    );
    const mounted = composeBindMounts(users).find((m) => m.source === 'deploy/base/mongodb-users.js');
    expect(composeCommand(users).join(' ')).toContain(`--file ${mounted?.target}`);
  });

  it('no manifest holds a plain password: URLs, *PASSWORD*/*TOKEN* variables and nats.conf users', () => {
    const problems: string[] = [];
    const secretName = /(PASSWORD|TOKEN|SECRET|_KEY)$/;
    const checkUrl = (where: string, value: string, placeholder: RegExp) => {
      for (const m of value.matchAll(/[a-z+]+:\/\/[^:@/\s]+:([^@\s]+)@/g))
        if (!placeholder.test(m[1]!)) problems.push(`${where}: a URL with a literal password`);
    };
    // Kubernetes: literal values may only refer to secret-backed variables, $(NAME).
    for (const w of [...deployments, ...statefulSets, ...jobs]) {
      for (const c of w.spec.template.spec.containers) {
        for (const e of c.env ?? []) {
          if (e.value === undefined) continue;
          if (secretName.test(e.name)) problems.push(`${w.metadata.name} ${e.name}: a literal value`);
          checkUrl(`${w.metadata.name} ${e.name}`, e.value, /^\$\([A-Z_]+\)$/);
        }
        const args = [...(c.command ?? []), ...(c.args ?? [])];
        args.forEach((arg, k) => {
          if (/^(--password|-p)$/.test(args[k - 1] ?? '') && !/^\$\([A-Z_]+\)$/.test(arg))
            problems.push(`${w.metadata.name}: a literal password argument`);
          checkUrl(`${w.metadata.name} argument`, arg, /^\$\([A-Z_]+\)$/);
        });
      }
    }
    for (const cm of ofKind(base.objects, 'ConfigMap')) {
      for (const [key, value] of Object.entries(cm.data ?? {})) {
        checkUrl(`ConfigMap ${cm.metadata.name}/${key}`, value, /^\$\([A-Z_]+\)$/);
        if (secretName.test(key)) problems.push(`ConfigMap ${cm.metadata.name}/${key}`);
        if (key.endsWith('.conf') && natsConfFacts(value).literalPasswords > 0)
          problems.push(`ConfigMap ${cm.metadata.name}/${key}: a literal user password`);
      }
    }
    // compose: every secret comes from .env, ${NAME:?…}.
    for (const [name, service] of Object.entries(compose.services)) {
      for (const variable of Object.keys(
        Array.isArray(service.environment) ? {} : (service.environment ?? {}),
      )) {
        const raw = composeRaw(service, variable);
        if (raw === undefined) continue;
        if (secretName.test(variable) && !/^\$\{[A-Z_]+(:[?-][^}]*)?\}$/.test(raw))
          problems.push(`compose ${name} ${variable}: a literal value`);
        checkUrl(`compose ${name} ${variable}`, raw, /^\$\{[A-Z_]+:\?[^}]*\}$/);
      }
    }
    if (natsConfFacts(readRepoFile('deploy/compose/nats.conf')).literalPasswords > 0)
      problems.push('deploy/compose/nats.conf: a literal user password');
    expect(problems).toEqual([]);
  });
});

describe('client addresses (TRUST_PROXY)', () => {
  it('Kubernetes: the gateway trusts no proxy; services trust the pod network, which only the gateway reaches', () => {
    const gatewayEnv = containerEnv(mainContainer(workloadNamed('gateway')), base).env;
    expect(literal(gatewayEnv, 'TRUST_PROXY')).toBe('false');
    for (const d of murmurServices) {
      const value = literal(containerEnv(mainContainer(d), base).env, 'TRUST_PROXY');
      expect([d.metadata.name, value]).toEqual([d.metadata.name, 'uniquelocal']);
    }
    // Only the gateway reaches a service's HTTP port: checked in "network policies" above.
  });

  it('compose: the gateway trusts no proxy unless told; services trust exactly the gateway fixed address', () => {
    const gateway = compose.services.gateway! as ComposeService & {
      networks?: Record<string, { ipv4_address?: string }>;
    };
    const composeFile = compose as typeof compose & {
      networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
    };
    expect(literal(composeEnv(gateway), 'TRUST_PROXY')).toBe('false');
    const address = gateway.networks?.default?.ipv4_address;
    const subnet = composeFile.networks?.default?.ipam?.config?.[0]?.subnet;
    const [gatewayIp] = [...(address ?? '').matchAll(/:-([^}]+)\}/g)].map((m) => m[1]);
    const [net] = [...(subnet ?? '').matchAll(/:-([^}]+)\}/g)].map((m) => m[1]);
    expect(gatewayIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(net!.split('/')[0]!.split('.').slice(0, 3)).toEqual(gatewayIp!.split('.').slice(0, 3));
    for (const [name, service] of composeMurmur.filter(([n]) => isService(n))) {
      expect([name, composeRaw(service, 'TRUST_PROXY')]).toEqual([name, address]);
    }
  });
});

describe('JetStream replicas', () => {
  it('match the NATS servers: three in Kubernetes, one in compose', () => {
    const replicas = workloadNamed('nats').spec.replicas;
    for (const d of murmurServices) {
      expect(literal(containerEnv(mainContainer(d), base).env, 'BUS_STREAM_REPLICAS')).toBe(String(replicas));
    }
    for (const [, service] of composeMurmur.filter(([n]) => isService(n)))
      expect(literal(composeEnv(service), 'BUS_STREAM_REPLICAS')).toBe('1');
  });
});
