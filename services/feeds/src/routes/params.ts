// Parameter shapes shared by the feeds routes.
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { lastValue, zParam } from '@murmur/http';

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 100;

/** `count`: an integer, default 20, above 100 clamped to 100, below 1 or not an integer → 400. */
export const countParam = z
  .unknown()
  .optional()
  .transform((raw) => {
    if (raw === undefined) return DEFAULT_COUNT;
    const value = lastValue(raw);
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d{1,16}$/.test(text) || Number(text) < 1) {
      throw badRequest('count must be a positive integer', 'count');
    }
    return Math.min(Number(text), MAX_COUNT);
  });

export const usernameParam = z.object({ username: z.string().min(1).max(64) });

/** A link to save: an absolute http(s) URL of at most 2048 characters. */
export const urlParam = zParam.url({ max: 2048 });
