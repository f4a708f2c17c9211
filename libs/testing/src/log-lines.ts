import type { ChildProcess } from 'node:child_process';

/** A JSON log line a child process wrote. */
export type LogLine = Record<string, unknown>;

/**
 * Reads the lines `child` writes on stdout (it must be spawned with stdout piped): each JSON line is
 * appended to `lines`, which keeps growing while the process runs. `ready` resolves once `isReady` holds
 * for a line — given its text, and the parsed object when it is JSON — and rejects, with what the
 * process wrote on stderr, if it exits before.
 */
export function collectLogLines(
  child: ChildProcess,
  isReady: (text: string, parsed: LogLine | undefined) => boolean,
): { lines: LogLine[]; ready: Promise<void> } {
  const lines: LogLine[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const parsed = text.startsWith('{') ? (JSON.parse(text) as LogLine) : undefined;
        if (parsed) lines.push(parsed);
        if (isReady(text, parsed)) resolve();
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the process exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  return { lines, ready };
}
