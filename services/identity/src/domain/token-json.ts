// Presenter of an app token as the operator sees it, in the shape of shapes.ts
// `tokenInfoSchema`: never the token, nor its hash.
import type { z } from 'zod';
import { formatOffsetTime } from '@murmur/core';
import type { tokenInfoSchema } from '../shapes.js';
import type { AppTokenDoc } from '../store/index.js';

export type TokenInfoJson = z.input<typeof tokenInfoSchema>;

export function tokenView(doc: AppTokenDoc): TokenInfoJson {
  return {
    id: doc._id,
    label: doc.label,
    kind: doc.kind,
    created_at: formatOffsetTime(doc.createdAt),
    last_used_at: doc.lastUsedAt ? formatOffsetTime(doc.lastUsedAt) : null,
    revoked_at: doc.revokedAt ? formatOffsetTime(doc.revokedAt) : null,
  };
}
