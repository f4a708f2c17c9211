// What a site page needs to be drawn: the site, its URL and name, its categories and navigation pages,
// and its owner's profile.
import type { CategoryDoc, PageDoc, PostDoc, SiteDoc } from '../store.js';

export interface SiteView {
  site: SiteDoc;
  url: string;
  name: string;
  /** The XML-RPC endpoint, for discovery. */
  xmlrpcUrl: string;
  /** Murmur's own public URL: its IndieAuth server is this site's owner's sign-in server. */
  serverUrl: string;
  /** Category by name, for links. */
  categories: ReadonlyMap<string, CategoryDoc>;
  navigation: readonly PageDoc[];
  /** The owner's profile for the h-cards: avatar URL, note and rel="me" links (empty when unknown). */
  owner: { photo: string; note: string; links: readonly string[] };
}

export interface EntryView {
  post: PostDoc;
  url: string;
}

export function categoryUrl(view: SiteView, name: string): string | null {
  const category = view.categories.get(name);
  return category ? `${view.url}categories/${category.slug}/` : null;
}
