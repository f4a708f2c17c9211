/**
 * Delay before retry number `attempt` (1 after the first failure): exponential, capped, with "equal
 * jitter" (half fixed, half random) so that jobs failing together do not retry together.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
