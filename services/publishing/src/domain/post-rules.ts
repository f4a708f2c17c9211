// The rules of docs/api/publishing.md that need no storage: input limits and how a post's status and date follow
// from `post_status`, the `publish` flag and the date member.
import type { PostStatus } from '../store.js';
import { MAX_CATEGORIES } from './categories.js';
import { badParam } from './errors.js';

export const MAX_TITLE_LENGTH = 255;
export const MAX_BODY_BYTES = 512 * 1024;

/** What a newPost/editPost content struct asks for; absent members are undefined. */
export interface PostChanges {
  title?: string;
  description?: string;
  categories?: string[];
  /** From `post_status`: `draft`, or anything else meaning publish. */
  status?: 'draft' | 'publish';
  date?: Date;
  /** The MetaWeblog `publish` parameter. */
  publish?: boolean;
}

export function checkTitle(title: string): string {
  const t = title.trim();
  if (t.length > MAX_TITLE_LENGTH) throw badParam(`title: at most ${MAX_TITLE_LENGTH} characters`);
  return t;
}

export function checkBody(body: string, member = 'description'): string {
  if (Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) throw badParam(`${member}: at most 512 KiB`);
  return body;
}

export function checkChanges(changes: PostChanges): PostChanges {
  const out: PostChanges = { ...changes };
  if (out.title !== undefined) out.title = checkTitle(out.title);
  if (out.description !== undefined) checkBody(out.description);
  if (out.categories !== undefined && out.categories.length > MAX_CATEGORIES)
    throw badParam(`categories: at most ${MAX_CATEGORIES}`);
  return out;
}

export interface PostTiming {
  status: PostStatus;
  date: Date;
  dateGiven: boolean;
}

/** newPost: draft by `post_status`, or by `publish` false without a status; else scheduled or published by date. */
export function newPostTiming(changes: PostChanges, now: Date): PostTiming {
  const dateGiven = changes.date !== undefined;
  const date = changes.date ?? now;
  const draft = changes.status === 'draft' || (changes.status === undefined && changes.publish === false);
  if (draft) return { status: 'draft', date, dateGiven };
  return { status: date.getTime() > now.getTime() ? 'scheduled' : 'published', date, dateGiven };
}

/**
 * editPost: `post_status` wins, then the `publish` flag, else the post keeps its state. A draft published
 * without a date of its own goes out now; a future date schedules; a past one backdates.
 */
export function editedPostTiming(current: PostTiming, changes: PostChanges, now: Date): PostTiming {
  const wantsPublic =
    changes.status !== undefined
      ? changes.status === 'publish'
      : changes.publish !== undefined
        ? changes.publish
        : current.status !== 'draft';
  let date = current.date;
  let dateGiven = current.dateGiven;
  if (changes.date !== undefined) {
    date = changes.date;
    dateGiven = true;
  } else if (current.status === 'draft' && !current.dateGiven && wantsPublic) {
    date = now;
  }
  if (!wantsPublic) return { status: 'draft', date, dateGiven };
  return { status: date.getTime() > now.getTime() ? 'scheduled' : 'published', date, dateGiven };
}
