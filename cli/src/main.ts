// `murmur` — starts the single process, or runs an operator command against the admin API.
import { ConfigError, createLogger, warnWithoutHeapFloor } from '@murmur/core';
import { parseArgs } from 'node:util';
import { readAdminToken } from './admin-token.js';
import { listeningLine } from './banner.js';
import { adminClient, AdminApiError } from './admin-client.js';
import { runAdminCommand, UsageError, USAGE } from './commands.js';
import { showOutbox } from './outbox.js';

async function start(): Promise<void> {
  // Loaded only to start: it imports every service and their libraries, seconds that `murmur --help`
  // and the admin commands (which only talk to a running gateway) should not wait for.
  const { startSingleProcess } = await import('./single-process.js');
  const running = await startSingleProcess(process.env);
  // LOG_LEVEL was validated by startSingleProcess.
  // Written synchronously, a warning comes before the banner below in the console, where whoever
  // started it is looking. (Through the asynchronous stream, with a flush first, it could still come
  // after: that stream's flush calls back while its write is in flight.)
  const logger = createLogger({ service: 'murmur', level: running.logLevel, sync: true });
  warnWithoutHeapFloor(logger, 'single', 'cli/dist/main.js start');
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${running.port}`;
  process.stdout.write(`${listeningLine(running.bound, publicUrl)}\n`);
  process.stdout.write(`Metrics and readiness (not public): ${running.internalUrl}/metrics, /readyz\n`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping…\n`);
    const timeout = setTimeout(() => process.exit(1), Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000));
    timeout.unref();
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

function adminBaseUrl(env: NodeJS.ProcessEnv): string {
  return env.MURMUR_URL ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 8080}`;
}

/** Options that take no value; every other `--name` takes one, written `--name value` or `--name=value`. */
const SWITCHES = new Set(['help', 'h', 'json', 'link', 'default', 'clear']);

/**
 * `--name value` as `--name=value` for every option that is not a switch: parseArgs without declared
 * options reads `--name value` as a switch followed by a positional, so `--username ada` was lost.
 */
function joinOptionValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name && !SWITCHES.has(name) && next !== undefined && !next.startsWith('--')) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Words each command takes, its own name included (USAGE): a word more is refused rather than silently
 * read as something else (`murmur users list ada` used to list everyone; a fourth word became --file).
 */
const WORDS: Record<string, number> = {
  start: 1,
  outbox: 1,
  'blogroll add': 3,
  'blogroll remove': 3,
  'archive import': 4,
  'webmentions block': 3,
  'webmentions unblock': 3,
  'push apps': 3,
  // `users links ada URL URL …`: any number of links.
  'users links': Infinity,
};

function checkWordCount(positionals: readonly string[]): void {
  const [group, action] = positionals;
  const allowed = WORDS[group!] ?? WORDS[`${group} ${action ?? ''}`] ?? 2;
  if (positionals.length > allowed) {
    const command = positionals.slice(0, Math.min(allowed, 2)).join(' ');
    throw new UsageError(`unexpected argument "${positionals[allowed]}" after \`murmur ${command}\``);
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: joinOptionValues(argv),
    allowPositionals: true,
    strict: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      link: { type: 'boolean' },
      clear: { type: 'boolean' },
    },
  });
  const [group, action, subject, object] = positionals;
  if (!group || values.help || group === 'help') {
    process.stdout.write(USAGE + '\n');
    return group || values.help ? 0 : 1;
  }
  checkWordCount(positionals);
  if (group === 'start') {
    await start();
    return -1; // keep running
  }
  if (group === 'outbox') {
    showOutbox(process.env.DATA_DIR ?? './data', values, {
      out: (line) => process.stdout.write(line + '\n'),
    });
    return 0;
  }
  const token = process.env.MURMUR_ADMIN_TOKEN ?? readAdminToken(process.env.DATA_DIR ?? './data');
  if (!token)
    throw new UsageError('set MURMUR_ADMIN_TOKEN (or run `murmur start` once, which stores one in DATA_DIR)');
  // A third word is the command's subject (`murmur blogroll add ada`), the same as --user.
  const flags = subject !== undefined && values.user === undefined ? { ...values, user: subject } : values;
  // A fourth word is the file a command reads (`murmur archive import 17 blog.zip`), the same as --file.
  if (object !== undefined && flags.file === undefined) flags.file = object;
  // The words after the subject (or after the command, when --user names the subject): a list of links.
  const words = positionals.slice(values.user === undefined ? 3 : 2);
  await runAdminCommand(
    adminClient(adminBaseUrl(process.env), token),
    group,
    action,
    flags,
    { out: (line) => process.stdout.write(line + '\n') },
    words,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`murmur: ${err.message}\n\n${USAGE}\n`);
    else if (err instanceof AdminApiError || err instanceof ConfigError)
      process.stderr.write(`murmur: ${err.message}\n`);
    else process.stderr.write(`murmur: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
