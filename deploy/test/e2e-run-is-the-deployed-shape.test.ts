// The files operators deploy are the ones that were executed: the multi-process run on the MongoDB-wire
// store (test-e2e/support/deployed.ts, used by test-e2e/test/all-services-deployed-shape-mongodb.test.ts and
// the chaos suite's MongoDB run) takes every process's variables and command from docker-compose.yml and
// NATS's configuration from deploy/compose/nats.conf; this proves it sets what compose sets — with compose's
// values, but for the replacements deployed.ts lists with their reasons — and that the kustomize base
// (deploy/base) sets the same variables as compose.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES } from '@murmur/core';
import {
  ADDED,
  OPTIONAL_FROM_OPERATOR,
  REPLACED,
  composeServices,
  deployedCommand,
  deployedEnv,
  isPortOrServiceUrl,
  writeComposeNatsConf,
  type DeployedPart,
  type DeployedSite,
} from '../../test-e2e/support/deployed.js';
import {
  composeCommand,
  composeEnv,
  containerEnv,
  expansionOnly,
  literal,
  loadBase,
  loadCompose,
  ofKind,
  readRepoFile,
  type Env,
  type Workload,
} from './support/manifests.js';

/** Values that differ between compose and Kubernetes on purpose (docs/operations.md). */
const KUBERNETES_DIFFERS: Record<string, string> = {
  PUBLIC_URL: 'an example host in the base; compose defaults to http://localhost:8080',
  TRUST_PROXY: "pod addresses (uniquelocal) in Kubernetes; the gateway's fixed address in compose",
  BUS_STREAM_REPLICAS: 'three NATS members in Kubernetes, one in compose',
  BUS_URL: 'the password comes from the Secret in Kubernetes ($(NATS_PASSWORD)), from .env in compose',
  STORE_URL: 'the password comes from the Secret in Kubernetes ($(MONGO_PASSWORD)), from .env in compose',
};
/** Optional variables compose passes on from .env that the Kubernetes base leaves to an overlay. */
const COMPOSE_ONLY: Partial<Record<DeployedPart, string[]>> = {
  identity: ['APPLE_CLIENT_IDS'],
  reader: ['READER_LLM_URL'],
};

const compose = loadCompose();
const base = loadBase();
const parts = Object.entries(compose.services)
  .filter(([, s]) => composeCommand(s)[0] === 'node')
  .map(([name]) => name as DeployedPart);

const site: DeployedSite = {
  publicUrl: 'http://murmur.test',
  adminToken: 'admin-token',
  mongoUrl: 'mongodb://127.0.0.1:27999/',
  natsPort: 4999,
  natsPasswords: Object.fromEntries(SERVICE_NAMES.map((s) => [s, `n${s}`])),
  ports: Object.fromEntries(parts.map((p, i) => [p, 10_000 + i])),
  gatewayInternalPort: 9999,
  dataDir: '/tmp/run',
  databaseSuffix: '_abc123',
};

function k8sEnv(part: DeployedPart): Env {
  const deployment = ofKind<Workload>(base.objects, 'Deployment').find((d) => d.metadata.name === part);
  if (!deployment) throw new Error(`deploy/base has no Deployment ${part}`);
  const containers = deployment.spec.template.spec.containers;
  const container = containers.find((c) => c.name === part) ?? containers[0]!;
  const { env } = containerEnv(container, base);
  for (const plumbing of expansionOnly(container)) env.delete(plumbing);
  return env;
}

const userOf = (url: string) => decodeURIComponent(new URL(url).username);
const databaseOf = (url: string) => new URL(url).pathname.slice(1);

describe('the multi-process run on the MongoDB-wire store is the deployed shape (compose and deploy/base)', () => {
  it('runs every service compose runs — all of SERVICE_NAMES — and the gateway', () => {
    expect([...parts].sort()).toEqual([...SERVICE_NAMES, 'gateway'].sort());
  });

  it('lists a reason for every value it replaces or adds', () => {
    for (const reason of [...Object.values(REPLACED), ...Object.values(ADDED)])
      expect(reason).toMatch(/\w{4,}/);
  });

  for (const part of parts) {
    describe(part, () => {
      const wanted = composeEnv(compose.services[part]!);
      const run = deployedEnv(part, site);

      it("sets every variable compose sets, with compose's value unless replaced for one machine", () => {
        const problems: string[] = [];
        for (const [name, value] of wanted) {
          if (value.kind === 'operator' && !value.required) {
            if (!(OPTIONAL_FROM_OPERATOR as readonly string[]).includes(name))
              problems.push(`${name}: optional in compose, unknown to the run`);
            continue;
          }
          if (!(name in run)) problems.push(`${name}: set by compose, not by the run`);
          else if (
            !(name in REPLACED) &&
            !isPortOrServiceUrl(part, name) &&
            run[name] !== literal(wanted, name)
          )
            problems.push(`${name}: compose ${literal(wanted, name)}, the run ${run[name]}`);
        }
        for (const name of Object.keys(run))
          if (!wanted.has(name) && !(name in ADDED)) problems.push(`${name}: set by the run only`);
        expect(problems).toEqual([]);
      });

      it('runs the command compose runs', () => {
        const { nodeArgs, entry } = deployedCommand(part);
        expect(['node', ...nodeArgs, entry]).toEqual(composeCommand(compose.services[part]!));
      });

      if (part !== 'gateway') {
        it('connects as its own NATS user and keeps its data in its own database, as compose and Kubernetes say', () => {
          const k8s = k8sEnv(part);
          const urls = {
            compose: [literal(wanted, 'BUS_URL')!, literal(wanted, 'STORE_URL')!],
            kubernetes: [literal(k8s, 'BUS_URL')!, literal(k8s, 'STORE_URL')!],
            run: [run.BUS_URL!, run.STORE_URL!.replace(site.databaseSuffix, '')],
          };
          for (const [bus, store] of Object.values(urls) as [string, string][]) {
            expect(userOf(bus)).toBe(part);
            expect(databaseOf(store)).toBe(`murmur_${part}`);
            expect(new URL(store).searchParams.get('authSource')).toBe('admin');
          }
        });
      }

      it('is given the same variables by the kustomize base as by compose', () => {
        const k8s = k8sEnv(part);
        const composeOnly = [...wanted.keys()].filter((n) => !k8s.has(n)).sort();
        const k8sOnly = [...k8s.keys()].filter((n) => !wanted.has(n)).sort();
        expect({ composeOnly, k8sOnly }).toEqual({ composeOnly: COMPOSE_ONLY[part] ?? [], k8sOnly: [] });
        const differs = [...wanted.keys()].filter(
          (n) =>
            !(n in KUBERNETES_DIFFERS) &&
            literal(wanted, n) !== undefined &&
            literal(k8s, n) !== undefined &&
            literal(wanted, n) !== literal(k8s, n),
        );
        expect(differs).toEqual([]);
      });
    });
  }

  it('runs NATS on deploy/compose/nats.conf as committed, but for its address and store directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'murmur-shape-'));
    try {
      const committed = readRepoFile('deploy/compose/nats.conf').split('\n');
      const run = readFileSync(writeComposeNatsConf(dir, 4999, 8999), 'utf8').split('\n');
      const changed = run.filter((line) => !committed.includes(line));
      expect(changed).toEqual([
        'host: 127.0.0.1',
        'port: 4999',
        'http_port: 8999',
        `  store_dir: ${JSON.stringify(join(dir, 'jetstream'))}`,
      ]);
      expect(committed.filter((line) => !run.includes(line))).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows every compose service', () => {
    expect(Object.keys(composeServices()).sort()).toEqual(Object.keys(compose.services).sort());
  });
});
