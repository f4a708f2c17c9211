// The rules of docs/api/publishing.md that need no storage: input limits (the Movable Type members' too)
// and how a post's status and date follow from `post_status`, the `publish` flag and the date member.
import type { PostMf2, PostStatus } from '../store.js';
import { MAX_CATEGORIES } from './categories.js';
import { badParam } from './errors.js';
import { slugify } from './slugs.js';

export const MAX_TITLE_LENGTH = 255;
export const MAX_BODY_BYTES = 512 * 1024;
export const MAX_SUMMARY_LENGTH = 4000;

/** What a newPost/editPost content struct asks for; absent members are undefined. */
export interface PostChanges {
  title?: string;
  description?: string;
  /** `mt_text_more`: the rest of the body, shown after a more marker. */
  more?: string;
  /** `mt_excerpt`: the summary, plain text. */
  summary?: string;
  /** `wp_slug`: the permalink's slug as given (`''`: made from the title). */
  slug?: string;
  categories?: string[];
  /** `mt_keywords`: tags, kept as categories too. */
  tags?: string[];
  /** From `post_status`: `draft`, or anything else meaning publish. */
  status?: 'draft' | 'publish';
  date?: Date;
  /** The MetaWeblog `publish` parameter. */
  publish?: boolean;
  /** Micropub's other properties (replaces the stored ones whole; undefined keeps them). */
  mf2?: PostMf2;
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

/** The main part and the rest together: what one call may carry (the small-body limit allows for it). */
export function checkBodies(description: string, more: string): void {
  checkBody(description);
  if (Buffer.byteLength(description, 'utf8') + Buffer.byteLength(more, 'utf8') > MAX_BODY_BYTES)
    throw badParam('mt_text_more: description and mt_text_more together at most 512 KiB');
}

export function checkChanges(changes: PostChanges): PostChanges {
  const out: PostChanges = { ...changes };
  if (out.title !== undefined) out.title = checkTitle(out.title);
  if (out.description !== undefined) checkBody(out.description);
  if (out.more !== undefined) checkBody(out.more, 'mt_text_more');
  if (out.summary !== undefined) {
    out.summary = out.summary.trim();
    if (out.summary.length > MAX_SUMMARY_LENGTH)
      throw badParam(`mt_excerpt: at most ${MAX_SUMMARY_LENGTH} characters`);
  }
  if (out.slug !== undefined && out.slug.trim() !== '') {
    const slug = slugify(out.slug);
    if (slug === '') throw badParam('wp_slug: must contain a letter or a digit');
    out.slug = slug;
  } else if (out.slug !== undefined) out.slug = '';
  for (const [member, names] of [
    ['categories', out.categories],
    ['mt_keywords', out.tags],
  ] as const) {
    if (names !== undefined && names.length > MAX_CATEGORIES)
      throw badParam(`${member}: at most ${MAX_CATEGORIES}`);
  }
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
