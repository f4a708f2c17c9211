// Configuration comes only from the environment, validated once at start-up. A bad value stops the
// process with one message naming every bad variable, so an operator fixes them all in one go.
import type { z } from 'zod';
import { DEPENDENT_DEFAULTS } from './base.js';

export {
  baseConfigShape,
  baseConfigSchema,
  serviceConfigShape,
  servicePortVar,
  serviceUrlVar,
  SERVICE_NAMES,
  SERVICE_DEFAULT_PORTS,
  DEFAULT_PORT,
  DEFAULT_DATA_DIR,
  type BaseConfig,
  type ServiceName,
  type ServicePortVar,
  type ServiceUrlVar,
} from './base.js';
export { parseNatsServers, type NatsServers } from './bus-url.js';
export { envVar, trustProxyVar, adminTokenVar, isHostOrCidr, type LogLevel } from './vars.js';

export interface ConfigIssue {
  variable: string;
  reason: string;
  /** The offending value as shown to operators (`(hidden)` for secrets, passwords in URLs masked). */
  shown: string | undefined;
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|KEY)$/i;

/** How a value may be printed: never a secret, never the password part of a URL. */
export function showConfigValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return '(hidden)';
  // Every URL of a comma list (`nats://u:p@a:4222,nats://u:p@b:4222`) has its password masked.
  const masked = value.replace(/(^|,)(\s*[a-z][a-z0-9+.-]*:\/\/[^/@:,]*:)[^/@,]*@/gi, '$1$2***@');
  return JSON.stringify(masked);
}

export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    const lines = issues.map((i) => {
      if (i.shown === undefined) return `  ${i.variable}: ${i.reason}`;
      return i.shown === '(hidden)'
        ? `  ${i.variable}: ${i.reason} (hidden)`
        : `  ${i.variable}: ${i.reason} (got ${i.shown})`;
    });
    super(`Invalid configuration:\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

function reasonOf(issue: z.core.$ZodIssue, present: boolean): string {
  if (!present) return 'is required';
  const m = issue.message;
  return m.charAt(0).toLowerCase() + m.slice(1);
}

/**
 * Validates `env` against `schema` (usually `z.object({...baseConfigShape, ...})`). Empty values count
 * as unset. PUBLIC_URL and STORE_URL get defaults derived from PORT and DATA_DIR.
 * Throws ConfigError listing every bad variable.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const input: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') input[name] = value;
  }
  for (const dep of DEPENDENT_DEFAULTS) {
    if (input[dep.name] === undefined) {
      const derived = dep.from(input);
      if (derived !== undefined) input[dep.name] = derived;
    }
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;

  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  for (const issue of result.error.issues) {
    const variable = String(issue.path[0] ?? '(configuration)');
    if (seen.has(variable)) continue;
    seen.add(variable);
    const raw = input[variable];
    issues.push({
      variable,
      reason: reasonOf(issue, raw !== undefined || issue.path.length === 0),
      shown: raw === undefined ? undefined : showConfigValue(variable, raw),
    });
  }
  throw new ConfigError(issues);
}
export { websubHubUrlVar, advertisedHubUrl, hubLinkHeader } from './websub.js';
