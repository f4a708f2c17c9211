// The site's HTML: a home page (the owner's representative h-card, then an h-feed of h-entries), a
// permalink page per post (h-entry), category pages and the user's pages. Each page links its feeds, the
// RSD document (EditURI) for editors, and Murmur's IndieAuth server (the default site's address is its
// owner's `me`, docs/api/identity.md), its Micropub endpoint and its webmention endpoint (docs/api/webmention.md). Authors are
// p-author h-cards nested in their entries and feeds, so the home page's card is the only top-level one
// (docs/api/publishing.md, "h-cards").
import { formatOffsetTime } from '@murmur/core';
import type { PageDoc } from '../store.js';
import { html, trusted, type Html } from './html.js';
import { categoryUrl, type EntryView, type SiteView } from './model.js';

function humanDate(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** The owner's avatar as the card's u-photo (decorative beside the name: empty alt). */
function photo(view: SiteView, size: number): Html | '' {
  return view.owner.photo
    ? html`<img class="u-photo" src="${view.owner.photo}" alt="" width="${size}" height="${size}" /> `
    : '';
}

/**
 * The owner as the author of an entry or a feed: a p-author h-card of it. Its URL is an explicit u-url
 * inside it (a class on the card's own element would be a property of the entry instead).
 */
function authorCard(view: SiteView, hidden = false): Html {
  return html`<span class="p-author h-card" ${hidden ? trusted(' hidden') : ''}
    ><a class="u-url" href="${view.url}">${photo(view, 24)}<span class="p-name">${view.name}</span></a></span
  >`;
}

/** A profile link as shown: the URL without its scheme. */
function linkText(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

/**
 * The site's representative h-card (the home page only): u-uid and u-url are the page's own URL, the
 * owner's `me`; rel="me" links name the owner's other profiles (IndieAuth and fediverse verification).
 */
function representativeCard(view: SiteView): Html {
  const { note, links } = view.owner;
  return html`<section class="h-card">
    <a class="u-url u-uid" href="${view.url}">${photo(view, 64)}<span class="p-name">${view.name}</span></a>
    ${note ? html`<p class="p-note">${note}</p>` : ''}
    ${
      links.length > 0
        ? html`<ul>
            ${links.map((link) => html`<li><a rel="me" href="${link}">${linkText(link)}</a></li>`)}
          </ul>`
        : ''
    }
  </section>`;
}

function layout(
  view: SiteView,
  title: string,
  canonical: string,
  main: Html,
  options: { representative?: boolean } = {},
): string {
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <link rel="canonical" href="${canonical}" />
        <link rel="alternate" type="application/feed+json" title="${view.name}" href="${view.url}feed.json" />
        <link rel="alternate" type="application/rss+xml" title="${view.name}" href="${view.url}feed.xml" />
        <link rel="EditURI" type="application/rsd+xml" title="RSD" href="${view.url}rsd.xml" />
        <link rel="indieauth-metadata" href="${view.serverUrl}/.well-known/oauth-authorization-server" />
        <link rel="authorization_endpoint" href="${view.serverUrl}/indieauth/auth" />
        <link rel="token_endpoint" href="${view.serverUrl}/indieauth/token" />
        <link rel="webmention" href="${view.serverUrl}/webmention" />
        <link rel="microsub" href="${view.serverUrl}/microsub" />
        <link rel="micropub" href="${view.serverUrl}/micropub" />
        ${options.representative ? view.owner.links.map((link) => html`<link rel="me" href="${link}" />`) : ''}
      </head>
      <body>
        <header>
          <a href="${view.url}">${view.name}</a>${
            view.navigation.length > 0
              ? html`<nav>
                  ${view.navigation.map((p) => html` <a href="${view.url}${p.slug}/">${p.title}</a>`)}
                </nav>`
              : ''
          }
        </header>
        ${options.representative ? representativeCard(view) : ''} ${main}
      </body>
    </html> `;
  return page.value;
}

function entry(view: SiteView, { post, url }: EntryView, heading: 'h1' | 'h2'): Html {
  const title = post.title
    ? heading === 'h1'
      ? html`<h1 class="p-name">${post.title}</h1>`
      : html`<h2 class="p-name"><a href="${url}">${post.title}</a></h2>`
    : '';
  const categories = post.categories.map((name) => {
    const link = categoryUrl(view, name);
    return link
      ? html` <a class="p-category" href="${link}">${name}</a>`
      : html` <span class="p-category">${name}</span>`;
  });
  return html`<article class="h-entry">
    ${title}
    <div class="e-content">${trusted(post.contentHtml)}</div>
    <footer>
      <a class="u-url u-uid" href="${url}"
        ><time class="dt-published" datetime="${formatOffsetTime(post.date)}"
          >${humanDate(post.date)}</time
        ></a
      >
      by ${authorCard(view)}${categories}
    </footer>
  </article>`;
}

export function homePage(
  view: SiteView,
  entries: EntryView[],
  heading = view.name,
  canonical = view.url,
): string {
  const main = html`<main class="h-feed">
    <h1 class="p-name">${heading}</h1>
    <a class="u-url" href="${canonical}" hidden></a>
    ${authorCard(view, true)}
    ${entries.length === 0 ? html`<p>Nothing published yet.</p>` : entries.map((e) => html`${entry(view, e, 'h2')} `)}
  </main>`;
  // The site's own home carries the representative h-card; a category's page is not the owner's `me`.
  return layout(view, heading, canonical, main, { representative: canonical === view.url });
}

export function entryPage(view: SiteView, entryView: EntryView): string {
  const title = entryView.post.title || entryView.post.contentText.slice(0, 60) || view.name;
  return layout(view, title, entryView.url, html`<main>${entry(view, entryView, 'h1')}</main>`);
}

/** What a deleted post's permalink shows (with 410 Gone): that it was deleted, nothing of the post. */
export function deletedPostPage(view: SiteView, url: string): string {
  const main = html`<main>
    <h1>Deleted</h1>
    <p>The post that was here has been deleted. <a href="${view.url}">${view.name}</a> goes on.</p>
  </main>`;
  return layout(view, 'Deleted', url, main);
}

export function userPage(view: SiteView, page: PageDoc): string {
  const url = `${view.url}${page.slug}/`;
  const main = html`<main>
    <article class="h-entry">
      <h1 class="p-name">${page.title}</h1>
      <div class="e-content">${trusted(page.contentHtml)}</div>
      <a class="u-url" href="${url}" hidden></a>
    </article>
  </main>`;
  return layout(view, page.title, url, main);
}
