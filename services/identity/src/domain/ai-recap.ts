// `is_using_ai` of the account object: true only when the reader's recaps use the operator's
// summariser. The reader owns that setting; identity asks it, briefly, and remembers the answer.
import { reader } from '@murmur/contracts';
import type { IdentityContext } from './context.js';

const REMEMBER_MS = 60_000;
const ASK_TIMEOUT_MS = 500;

export function createAiRecapProbe(ctx: Pick<IdentityContext, 'bus' | 'logger'>, now: () => number) {
  let known: { usingAi: boolean; at: number } | undefined;
  return async function usingAi(): Promise<boolean> {
    if (known && now() - known.at < REMEMBER_MS) return known.usingAi;
    let answer = false;
    try {
      answer = (await ctx.bus.request(reader.recapCapabilities, {}, { timeoutMs: ASK_TIMEOUT_MS })).usingAi;
    } catch (err) {
      // No reader in this deployment, or it is slow: nobody is using AI recaps right now.
      ctx.logger.debug({ err }, 'reader did not say whether recaps use AI');
    }
    known = { usingAi: answer, at: now() };
    return answer;
  };
}
