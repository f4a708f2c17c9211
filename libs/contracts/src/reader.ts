// What the reader answers on the bus.
import { z } from 'zod';
import { defineRequest } from './bus.js';

/**
 * Whether recaps use the operator-configured summariser (READER_LLM_URL). Identity asks it to fill
 * the account's `is_using_ai`; no answer (reader absent or slow) means false.
 */
export const recapCapabilities = defineRequest(
  'reader',
  'recap',
  'capabilities',
  z.object({}),
  z.object({ usingAi: z.boolean() }),
);
