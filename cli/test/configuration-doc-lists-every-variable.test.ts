// docs/configuration.md is the operator's list of environment variables: every variable a process of
// this build reads — each service's configuration schema, the gateway's, the single-process launcher's,
// and the CLI's own — must have its row there (GATEWAY_SITE_HOSTS once had none).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { gatewayConfigSchema } from '@murmur/gateway';
import { launcherConfigSchema, services } from '@murmur/cli';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const documented = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');

/** The variable names of a zod object schema, looking through a refinement or a pipe around it. */
function variablesOf(schema: unknown): string[] {
  let current = schema as { shape?: Record<string, unknown>; def?: { in?: unknown; schema?: unknown } };
  for (let depth = 0; depth < 5 && !current.shape; depth++) {
    const inner = current.def?.in ?? current.def?.schema;
    if (!inner) break;
    current = inner as typeof current;
  }
  if (!current.shape) throw new Error('not an object schema');
  return Object.keys(current.shape);
}

/** Read by cli/src/main.ts from the environment directly. */
const CLI_VARIABLES = [
  'MURMUR_URL',
  'MURMUR_ADMIN_TOKEN',
  'DATA_DIR',
  'PUBLIC_URL',
  'PORT',
  'SHUTDOWN_TIMEOUT_MS',
];

describe('docs/configuration.md', () => {
  const sources: Array<[string, string[]]> = [
    ...services.map((s): [string, string[]] => [s.name, variablesOf(s.configSchema)]),
    ['gateway', variablesOf(gatewayConfigSchema)],
    ['single process', variablesOf(launcherConfigSchema)],
    ['cli', CLI_VARIABLES],
  ];

  it.each(sources)('documents every variable %s reads', (_source, variables) => {
    expect(variables.length).toBeGreaterThan(0);
    const missing = variables.filter((name) => !documented.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
