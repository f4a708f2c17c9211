// Timeline positions and the cursors built from them. Feeds orders every timeline newest first by
// `published`, then by post id (docs/api/microsub.md "Timeline"); published times travel in whole
// seconds, so an item's position is computed from the item itself and compared here.
//
// A cursor is `<ms>.<id>` in base 36, optionally followed by `.<hint>`: an opaque feeds cursor at or
// newer than the position, so the next older page starts there instead of at the top. Clients treat
// the whole string as opaque.
import { badRequest } from '@murmur/core';
import type { Position } from '../store.js';

export type { Position } from '../store.js';

export const TOP: Position = { ms: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };

/**
 * Entries of feeds followed on the open web (through the reader) have `_id` `w<entry id>` and sort,
 * within one second, above every post: their position id is WEB_ID_BASE + the entry id.
 */
export const WEB_ID_BASE = 2 ** 50;

export function webItemId(entryId: number): string {
  return `w${entryId}`;
}

/** The position id of an `_id`: the post id, or WEB_ID_BASE + the entry id. */
export function positionIdOf(id: string): number {
  return id.startsWith('w') ? WEB_ID_BASE + Number(id.slice(1)) : Number(id);
}

export function positionOf(item: { id: string; publishedAt: string }): Position {
  return { ms: Date.parse(item.publishedAt), id: positionIdOf(item.id) };
}

/** a newer than b */
export function isNewer(a: Position, b: Position): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.id > b.id);
}

export function newest(a: Position, b: Position): Position {
  return isNewer(a, b) ? a : b;
}

export interface Cursor {
  at: Position;
  /** A feeds `before` cursor at or newer than `at`; undefined means the top. */
  hint?: string;
}

export function encodeCursor(cursor: Cursor): string {
  const base = `${cursor.at.ms.toString(36)}.${cursor.at.id.toString(36)}`;
  return cursor.hint ? `${base}.${cursor.hint}` : base;
}

const CURSOR = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})(?:\.([A-Za-z0-9_-]{1,200}))?$/;

export function invalidCursor(param: string): ReturnType<typeof badRequest> {
  return badRequest(`${param}: not a cursor of this channel`, param, 'invalid_cursor');
}

export function decodeCursor(text: string, param: string): Cursor {
  const match = CURSOR.exec(text);
  if (!match) throw invalidCursor(param);
  const ms = parseInt(match[1]!, 36);
  const id = parseInt(match[2]!, 36);
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(id) || id < 1) throw invalidCursor(param);
  return { at: { ms, id }, ...(match[3] ? { hint: match[3] } : {}) };
}
