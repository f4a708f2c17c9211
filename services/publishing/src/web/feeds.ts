// The site's feeds: JSON Feed 1.1 (docs/api/conventions.md, "JSON Feed") and RSS 2.0, plus the RSD document that tells blog
// editors where the XML-RPC endpoint is (MetaWeblog preferred, Blogger too, with the site id as blogID).
import { formatHttpDate, formatOffsetTime } from '@murmur/core';
import { escapeXmlAttribute as attr, escapeXmlText } from '../xml-text.js';
import type { EntryView, SiteView } from './model.js';

export function jsonFeed(view: SiteView, entries: EntryView[], hub?: string): unknown {
  const author = {
    name: view.name,
    url: view.url,
    ...(view.owner.photo ? { avatar: view.owner.photo } : {}),
  };
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: view.name,
    home_page_url: view.url,
    feed_url: `${view.url}feed.json`,
    ...(hub ? { hubs: [{ type: 'WebSub', url: hub }] } : {}),
    items: entries.map(({ post, url }) => ({
      id: String(post._id),
      url,
      ...(post.title ? { title: post.title } : {}),
      content_html: post.contentHtml,
      ...(post.summary ? { summary: post.summary } : {}),
      ...(post.contentText ? { content_text: post.contentText } : {}),
      ...(post.photos[0] ? { image: post.photos[0] } : {}),
      date_published: formatOffsetTime(post.date),
      date_modified: formatOffsetTime(post.modifiedAt),
      authors: [author],
      author,
      ...(post.categories.length > 0 ? { tags: post.categories } : {}),
    })),
  };
}

export function rssFeed(
  view: SiteView,
  entries: EntryView[],
  title: string,
  selfUrl: string,
  link: string,
  /** The WebSub hub, named by an atom:link rel="hub" (category feeds name none: no hub serves them). */
  hub?: string,
): string {
  const items = entries.map(({ post, url }) => {
    const parts = [
      post.title ? `<title>${escapeXmlText(post.title)}</title>` : '',
      `<link>${escapeXmlText(url)}</link>`,
      `<guid isPermaLink="true">${escapeXmlText(url)}</guid>`,
      `<pubDate>${formatHttpDate(post.date)}</pubDate>`,
      `<description>${escapeXmlText(post.contentHtml)}</description>`,
      ...post.categories.map((c) => `<category>${escapeXmlText(c)}</category>`),
    ];
    return `<item>${parts.join('')}</item>`;
  });
  const built = entries[0] ? formatHttpDate(entries[0].post.modifiedAt) : formatHttpDate(view.site.createdAt);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
    `<title>${escapeXmlText(title)}</title><link>${escapeXmlText(link)}</link>` +
    `<description>${escapeXmlText(`Posts of ${view.name}`)}</description>` +
    `<atom:link href="${attr(selfUrl)}" rel="self" type="application/rss+xml"/>` +
    (hub ? `<atom:link href="${attr(hub)}" rel="hub"/>` : '') +
    `<lastBuildDate>${built}</lastBuildDate>${items.join('\n')}</channel></rss>\n`
  );
}

export function rsdDocument(view: SiteView): string {
  const blogId = attr(String(view.site._id));
  const api = (name: string, preferred: boolean) =>
    `<api name="${name}" blogID="${blogId}" preferred="${preferred}" apiLink="${attr(view.xmlrpcUrl)}"/>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd">` +
    `<service><engineName>Murmur</engineName><engineLink>${escapeXmlText(view.xmlrpcUrl.replace(/\/xmlrpc$/, '/'))}</engineLink>` +
    `<homePageLink>${escapeXmlText(view.url)}</homePageLink><apis>${api('MetaWeblog', true)}${api('Blogger', false)}</apis>` +
    `</service></rsd>\n`
  );
}
