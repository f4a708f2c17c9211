// The URLs of this server's ActivityPub objects (docs/api/federation.md, "Addresses"): every actor,
// collection, note and inbox lives under PUBLIC_URL/ap/, WebFinger and NodeInfo where their
// specifications put them.
export interface Urls {
  base: string;
  /** PUBLIC_URL's host (with its port when it has one): the host of every handle here. */
  host: string;
  actor(username: string): string;
  keyId(username: string): string;
  inbox(username: string): string;
  outbox(username: string): string;
  followers(username: string): string;
  following(username: string): string;
  sharedInbox: string;
  /** The instance actor, which signs the fetches made for nobody in particular. */
  instanceActor: string;
  instanceKeyId: string;
  note(postId: number): string;
  /** The profile page every user has (identity's `/{username}/`). */
  profile(username: string): string;
  /** A post's note id → its post id, or null when the URL is no note of ours. */
  postIdOfNote(url: string): number | null;
  /** An actor URL of ours → its username, or null. */
  usernameOfActor(url: string): string | null;
}

export function urlsOf(publicUrl: string): Urls {
  const base = publicUrl.replace(/\/+$/, '');
  const ap = `${base}/ap`;
  const actor = (u: string) => `${ap}/users/${encodeURIComponent(u)}`;
  const notePrefix = `${ap}/notes/`;
  const actorPrefix = `${ap}/users/`;
  return {
    base,
    host: new URL(base).host,
    actor,
    keyId: (u) => `${actor(u)}#main-key`,
    inbox: (u) => `${actor(u)}/inbox`,
    outbox: (u) => `${actor(u)}/outbox`,
    followers: (u) => `${actor(u)}/followers`,
    following: (u) => `${actor(u)}/following`,
    sharedInbox: `${ap}/inbox`,
    instanceActor: `${ap}/actor`,
    instanceKeyId: `${ap}/actor#main-key`,
    note: (id) => `${notePrefix}${id}`,
    profile: (u) => `${base}/${encodeURIComponent(u)}/`,
    postIdOfNote(url) {
      if (!url.startsWith(notePrefix)) return null;
      const rest = url.slice(notePrefix.length).split(/[#?/]/)[0]!;
      return /^\d{1,15}$/.test(rest) ? Number(rest) : null;
    },
    usernameOfActor(url) {
      if (!url.startsWith(actorPrefix)) return null;
      const rest = url.slice(actorPrefix.length);
      if (rest === '' || /[/?#]/.test(rest)) return null;
      try {
        return decodeURIComponent(rest);
      } catch {
        return null;
      }
    },
  };
}
