// Which events notify whom, with what text (docs/api/push.md, "Triggers"). Pure functions: an event
// in, at most one notification per user out, never one to the author of the action.
import type { federation, publishing, webmention } from '@murmur/contracts';

export type NotificationKind = 'reply' | 'mention' | 'webmention' | 'follow';

export interface Notification {
  kind: NotificationKind;
  userId: number;
  /** The alert text, at most ALERT_MAX characters. */
  alert: string;
  /** The post's id, for mentions and replies. */
  postId?: string;
  /** The acting Murmur user, absent for webmentions from outside. */
  fromUsername?: string;
}

export const ALERT_MAX = 200;

/** Cuts `text` to `max` code points, ending in `…` when cut. */
export function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max
    ? text
    : points
        .slice(0, max - 1)
        .join('')
        .trimEnd() + '…';
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** True when `text` starts with `@username` as a whole word (any case): a reply to that user. */
export function startsWithMention(text: string, username: string): boolean {
  const escaped = username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^@${escaped}(?![\\w-])`, 'i').test(text.trimStart());
}

/** A published post: a reply for the user it starts with, a mention for everyone else it names. */
export function notificationsOfPost(post: publishing.PublicPost, authorUsername: string): Notification[] {
  const text = oneLine(post.contentText || post.title);
  const seen = new Set<number>([post.userId]);
  const out: Notification[] = [];
  for (const m of post.mentions) {
    if (seen.has(m.userId)) continue;
    seen.add(m.userId);
    const reply = startsWithMention(text, m.username);
    const body = reply
      ? text
          .trimStart()
          .slice(m.username.length + 1)
          .trim()
      : text;
    const prefix = reply ? `@${authorUsername} replied: ` : `@${authorUsername} mentioned you: `;
    out.push({
      kind: reply ? 'reply' : 'mention',
      userId: m.userId,
      alert: clip(prefix + body, ALERT_MAX),
      postId: String(post.id),
      fromUsername: authorUsername,
    });
  }
  return out;
}

const WEBMENTION_VERBS: Record<webmention.MentionType, string> = {
  reply: 'replied to',
  like: 'liked',
  repost: 'reposted',
  bookmark: 'bookmarked',
  mention: 'mentioned',
};

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** A webmention verified for the first time notifies the owner of the target; a re-verification does not. */
export function notificationOfWebmention(m: webmention.VerifiedMention): Notification | null {
  if (!m.isNew || m.targetUserId === null) return null;
  const who = oneLine(m.author.name ?? '') || hostOf(m.author.url) || hostOf(m.source) || 'Someone';
  return {
    kind: 'webmention',
    userId: m.targetUserId,
    alert: clip(`${clip(who, 80)} ${WEBMENTION_VERBS[m.type]} your post`, ALERT_MAX),
  };
}

export function notificationOfFollow(f: {
  followerId: number;
  followerUsername: string;
  followeeId: number;
}): Notification | null {
  if (f.followerId === f.followeeId) return null;
  return {
    kind: 'follow',
    userId: f.followeeId,
    alert: clip(`@${f.followerUsername} started following you`, ALERT_MAX),
    fromUsername: f.followerUsername,
  };
}

/**
 * An account of another server (ActivityPub) started following a local user: the follow notification
 * with its handle. No `from_user`: it names no Murmur user.
 */
export function notificationOfRemoteFollower(f: {
  userId: number;
  follower: Pick<federation.RemoteAccount, 'handle'>;
}): Notification {
  return {
    kind: 'follow',
    userId: f.userId,
    alert: clip(`@${f.follower.handle} started following you`, ALERT_MAX),
  };
}
