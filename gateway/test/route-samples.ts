// Concrete requests with the service that must answer them. `samples`, written by hand: requests as
// clients send them (queries, bodies, content types) for the paths of Murmur's HTTP interface
// (docs/api/), the paths two services share and the methods a path has. `rowSamples`, made from the
// route table: one request for each method of each row, so that every endpoint the services register
// (the table is generated from them, gateway/src/route-table-generator.ts) is exercised without being
// written here again.
import type { ServiceName } from '@murmur/core';
import { routeTable } from '../src/index.js';

export interface Sample {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  path: string;
  service: ServiceName;
  body?: string;
  contentType?: string;
}

const form = 'application/x-www-form-urlencoded';
const json = 'application/json';

export const samples: readonly Sample[] = [
  // identity: accounts, IndieAuth, OAuth metadata, operator admin API
  {
    method: 'POST',
    path: '/account/signin',
    service: 'identity',
    body: 'email=ada%40example.com',
    contentType: form,
  },
  { method: 'POST', path: '/account/verify?token=abc', service: 'identity' },
  {
    method: 'POST',
    path: '/account/apple',
    service: 'identity',
    body: '{"identity_token":"x"}',
    contentType: json,
  },
  { method: 'GET', path: '/account/signin/web?token=abc&return_to=%2F', service: 'identity' },
  { method: 'GET', path: '/account/avatar/ada.svg', service: 'identity' },
  { method: 'GET', path: '/', service: 'identity' },
  { method: 'GET', path: '/ada/', service: 'identity' },
  { method: 'GET', path: '/admin/sites?username=ada', service: 'publishing' },
  { method: 'GET', path: '/sites/ada/feed.json', service: 'publishing' },
  { method: 'GET', path: '/account/me', service: 'identity' },
  {
    method: 'GET',
    path: '/indieauth/auth?client_id=https%3A%2F%2Fapp.example%2F&redirect_uri=app%3A%2F%2Fsignin&state=s',
    service: 'identity',
  },
  {
    method: 'POST',
    path: '/indieauth/approve',
    service: 'identity',
    body: 'request=r&csrf=c',
    contentType: form,
  },
  { method: 'POST', path: '/indieauth/auth', service: 'identity', body: 'code=c', contentType: form },
  {
    method: 'POST',
    path: '/indieauth/token',
    service: 'identity',
    body: 'grant_type=authorization_code',
    contentType: form,
  },
  { method: 'GET', path: '/indieauth/token', service: 'identity' },
  { method: 'POST', path: '/indieauth/introspect', service: 'identity', body: 'token=t', contentType: form },
  { method: 'POST', path: '/indieauth/revoke', service: 'identity', body: 'token=t', contentType: form },
  { method: 'GET', path: '/.well-known/oauth-authorization-server', service: 'identity' },
  {
    method: 'POST',
    path: '/admin/users',
    service: 'identity',
    body: '{"username":"ada"}',
    contentType: json,
  },
  { method: 'GET', path: '/admin/users/ada', service: 'identity' },
  { method: 'POST', path: '/admin/users/ada/tokens', service: 'identity' },
  { method: 'POST', path: '/admin/apps', service: 'identity', body: '{"app_name":"x"}', contentType: json },
  { method: 'DELETE', path: '/admin/tokens/5', service: 'identity' },
  {
    method: 'POST',
    path: '/admin/tokens/revoke',
    service: 'identity',
    body: '{"token":"t"}',
    contentType: json,
  },
  { method: 'GET', path: '/admin/users', service: 'identity' },
  {
    method: 'PATCH',
    path: '/admin/users/ada',
    service: 'identity',
    body: '{"email":"a@b.c"}',
    contentType: json,
  },
  { method: 'GET', path: '/admin/users/ada/tokens', service: 'identity' },
  { method: 'GET', path: '/admin/apps', service: 'identity' },
  { method: 'DELETE', path: '/admin/apps/3', service: 'identity' },
  { method: 'POST', path: '/account/signout', service: 'identity', body: 'csrf=c', contentType: form },
  { method: 'POST', path: '/indieauth/signin', service: 'identity', body: 'email=a', contentType: form },
  { method: 'GET', path: '/indieauth/screen.css', service: 'identity' },

  // reader: Feedbin API v2
  { method: 'GET', path: '/feeds/v2/entries.json?read=false&per_page=5&ids=1%2C2', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/entries/2077.json?mode=extended', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/feeds/13/entries.json?page=2', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/icons.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/unread_entries.json', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/v2/unread_entries.json',
    service: 'reader',
    body: '{"unread_entries":[1,2]}',
    contentType: json,
  },
  {
    method: 'DELETE',
    path: '/feeds/v2/unread_entries.json',
    service: 'reader',
    body: '[1,2]',
    contentType: json,
  },
  {
    method: 'POST',
    path: '/feeds/v2/unread_entries/delete.json',
    service: 'reader',
    body: '[3]',
    contentType: json,
  },
  { method: 'GET', path: '/feeds/v2/starred_entries.json', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/v2/starred_entries.json',
    service: 'reader',
    body: '{"starred_entries":[1]}',
    contentType: json,
  },
  {
    method: 'DELETE',
    path: '/feeds/v2/starred_entries.json',
    service: 'reader',
    body: '{"starred_entries":[1]}',
    contentType: json,
  },
  {
    method: 'POST',
    path: '/feeds/v2/starred_entries/delete.json',
    service: 'reader',
    body: '[1]',
    contentType: json,
  },
  { method: 'GET', path: '/feeds/v2/subscriptions.json?since=2026-11-01', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/v2/subscriptions.json?feed_url=https%3A%2F%2Fblog.example%2F',
    service: 'reader',
  },
  { method: 'GET', path: '/feeds/v2/subscriptions/51.json', service: 'reader' },
  {
    method: 'PATCH',
    path: '/feeds/v2/subscriptions/51.json',
    service: 'reader',
    body: '{"title":"T"}',
    contentType: json,
  },
  { method: 'DELETE', path: '/feeds/v2/subscriptions/51.json', service: 'reader' },
  { method: 'POST', path: '/feeds/v2/subscriptions/51/update.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/subscriptions.xml', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/authentication.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/taggings.json', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/v2/taggings.json',
    service: 'reader',
    body: 'feed_id=1&name=x',
    contentType: form,
  },
  { method: 'GET', path: '/feeds/v2/taggings/4.json', service: 'reader' },
  { method: 'DELETE', path: '/feeds/v2/taggings/4.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/tags.json', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/v2/tags.json',
    service: 'reader',
    body: '{"old_name":"a","new_name":"b"}',
    contentType: json,
  },
  {
    method: 'DELETE',
    path: '/feeds/v2/tags.json',
    service: 'reader',
    body: '{"name":"a"}',
    contentType: json,
  },
  {
    method: 'POST',
    path: '/feeds/v2/imports.json',
    service: 'reader',
    body: '<opml version="2.0"/>',
    contentType: 'text/xml',
  },
  { method: 'GET', path: '/feeds/v2/imports.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/imports/3.json', service: 'reader' },
  { method: 'GET', path: '/feeds/v2/extract/12/AbCdEfGhIjKlMnOpQrStUv.json', service: 'reader' },
  // reader: highlights and recap, carved out of /feeds
  { method: 'GET', path: '/feeds/highlights?limit=5&offset=10', service: 'reader' },
  { method: 'GET', path: '/feeds/2077/highlights', service: 'reader' },
  {
    method: 'POST',
    path: '/feeds/12/highlights',
    service: 'reader',
    body: 'text=hi&start=1&end=3',
    contentType: form,
  },
  { method: 'DELETE', path: '/feeds/12/highlights/3', service: 'reader' },
  { method: 'POST', path: '/feeds/recap?reset=1', service: 'reader', body: '[1,2,3]', contentType: json },
  { method: 'GET', path: '/feeds/recap/email', service: 'reader' },
  { method: 'POST', path: '/feeds/recap/email?dayofweek=friday', service: 'reader' },

  // feeds: JSON Feeds, private queues, bookmarks, read later, follows
  { method: 'GET', path: '/blogroll.org.json', service: 'feeds' },
  { method: 'GET', path: '/feeds/photos.json', service: 'feeds' },
  { method: 'GET', path: '/feeds/ada.json?count=5', service: 'feeds' },
  { method: 'HEAD', path: '/feeds/ada.json', service: 'feeds' },
  { method: 'GET', path: '/feeds/ada/mentions.json?count=5', service: 'feeds' },
  { method: 'GET', path: '/feeds/ada/webmentions.json', service: 'feeds' },
  { method: 'GET', path: '/feeds/ada/bookmarks/tok.json', service: 'feeds' },
  { method: 'GET', path: '/feeds/ada/readlater/tok.json', service: 'feeds' },
  { method: 'PUT', path: '/admin/blogroll/ada', service: 'feeds' },
  { method: 'DELETE', path: '/admin/blogroll/ada', service: 'feeds' },
  {
    method: 'POST',
    path: '/posts/bookmarks',
    service: 'feeds',
    body: 'url=https%3A%2F%2Fnews.example%2F',
    contentType: form,
  },
  { method: 'GET', path: '/posts/bookmarks?count=5&before_id=bm-3', service: 'feeds' },
  { method: 'DELETE', path: '/posts/bookmarks/bm-311', service: 'feeds' },
  { method: 'GET', path: '/posts/bookmarks/listenlater', service: 'feeds' },
  {
    method: 'POST',
    path: '/feeds/readlater',
    service: 'feeds',
    body: '{"url":"https://x.example/"}',
    contentType: json,
  },
  { method: 'POST', path: '/feeds/readlater/rl-90/archive', service: 'feeds' },
  { method: 'GET', path: '/feeds/readlater/token', service: 'feeds' },
  { method: 'POST', path: '/feeds/readlater/token', service: 'feeds' },
  { method: 'POST', path: '/users/follow', service: 'feeds', body: 'username=bob', contentType: form },
  { method: 'POST', path: '/users/unfollow', service: 'feeds', body: 'username=bob', contentType: form },
  { method: 'GET', path: '/users/following/bob', service: 'feeds' },

  // microsub
  { method: 'GET', path: '/microsub?action=timeline&channel=default&before=1042', service: 'microsub' },
  {
    method: 'POST',
    path: '/microsub',
    service: 'microsub',
    body: 'action=timeline&method=mark_read&entry[]=1&entry[]=2',
    contentType: form,
  },

  // webmention
  {
    method: 'GET',
    path: '/webmention?target=https%3A%2F%2Fada.example%2F&format=jf2',
    service: 'webmention',
  },
  {
    method: 'POST',
    path: '/webmention',
    service: 'webmention',
    body: 'source=https%3A%2F%2Fc.example%2Fr&target=https%3A%2F%2Fada.example%2F',
    contentType: form,
  },

  // archive
  { method: 'GET', path: '/imported/archive/17/recent.json?offset=25', service: 'archive' },
  { method: 'GET', path: '/imported/archive/17/search.json?q=caf%C3%A9+paris', service: 'archive' },
  { method: 'GET', path: '/imported/archive/17/years.json', service: 'archive' },
  { method: 'GET', path: '/imported/archive/17/2019/04.json', service: 'archive' },
  {
    method: 'POST',
    path: '/imported/archive/17/import',
    service: 'archive',
    body: '{"version":"x"}',
    contentType: 'application/feed+json',
  },
  { method: 'GET', path: '/imported/archive/17/import/imp-8', service: 'archive' },

  // publishing
  { method: 'POST', path: '/xmlrpc', service: 'publishing', body: '<methodCall/>', contentType: 'text/xml' },
  { method: 'GET', path: '/media/ada.example/2026/abc-photo.png', service: 'publishing' },
  { method: 'GET', path: '/sites/ada/rsd.xml', service: 'publishing' },
  { method: 'GET', path: '/sites/ada', service: 'publishing' },
  { method: 'GET', path: '/sites/ada/2026/11/hello.html', service: 'publishing' },
  {
    method: 'PATCH',
    path: '/admin/sites/4',
    service: 'publishing',
    body: '{"title":"T"}',
    contentType: json,
  },
  { method: 'GET', path: '/xmlrpc', service: 'publishing' },
  { method: 'GET', path: '/micropub?q=config', service: 'publishing' },
  {
    method: 'POST',
    path: '/micropub',
    service: 'publishing',
    body: 'h=entry&content=hello&category[]=a',
    contentType: form,
  },
  { method: 'GET', path: '/micropub/media?q=last', service: 'publishing' },
  {
    method: 'POST',
    path: '/micropub/media',
    service: 'publishing',
    body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nx\r\n--b--\r\n',
    contentType: 'multipart/form-data; boundary=b',
  },

  // push
  { method: 'GET', path: '/users/push/info?push_env=production', service: 'push' },
  {
    method: 'POST',
    path: '/users/push/register',
    service: 'push',
    body: 'device_token=abcdef0123456789&push_env=prod',
    contentType: form,
  },
  {
    method: 'POST',
    path: '/users/push/unregister?device_token=abcdef0123456789&push_env=sandbox',
    service: 'push',
  },
];

/** Requests no endpoint serves (path, parameter format or method): the gateway answers 404 itself. */
export const unknownPaths: ReadonlyArray<{ method: Sample['method']; path: string }> = [
  { method: 'POST', path: '/' },
  { method: 'GET', path: '/feeds/abc/highlights' },
  { method: 'GET', path: '/feeds/12/highlights/3' },
  { method: 'DELETE', path: '/feeds/12/highlights/x' },
  { method: 'GET', path: '/feeds/ada/nothing.json' },
  { method: 'GET', path: '/feeds/ada/bookmarks' },
  { method: 'POST', path: '/feeds/ada.json' },
  { method: 'GET', path: '/feeds/recap/other' },
  { method: 'GET', path: '/posts/bookmarks/a/b' },
  { method: 'GET', path: '/users/push/other' },
  { method: 'DELETE', path: '/users/push/register' },
  { method: 'GET', path: '/imported/archive/17/nothing.json' },
  { method: 'GET', path: '/imported/archive/ada/years.json' },
  { method: 'GET', path: '/account/other' },
  { method: 'GET', path: '/admin/users/ada/other' },
  { method: 'GET', path: '/media/ada.example/x' },
  { method: 'PUT', path: '/webmention' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/wp-login.php' },
  { method: 'GET', path: '/users/ada' },
  { method: 'GET', path: '/users/following/bob/extra' },
  { method: 'GET', path: '/admin/settings' },
  { method: 'GET', path: '/posts/1' },
  { method: 'GET', path: '/imported/other' },
  { method: 'GET', path: '/feedsx/ada.json' },
  { method: 'GET', path: '/microsub/extra' },
  { method: 'GET', path: '/.well-known/host-meta' },
];

/** A path `pattern` matches: integer parameters `17`, other parameters `ada`, a trailing `/*` one segment more. */
export function pathOfPattern(pattern: string): string {
  return pattern
    .replace(/\/\*$/, '/x')
    .replace(/\{[a-z_]+:int\}/g, '17')
    .replace(/\{[a-z_]+\}/g, 'ada');
}

/** One request for each method of each row of the route table (GET and POST for a row of any method). */
export const rowSamples: ReadonlyArray<Sample & { pattern: string }> = routeTable.flatMap((row) =>
  (row.methods.includes('*') ? (['GET', 'POST'] as const) : row.methods)
    .filter((method): method is Sample['method'] => method !== 'OPTIONS' && method !== '*')
    .map((method) => ({
      method,
      path: pathOfPattern(row.pattern),
      service: row.service,
      pattern: row.pattern,
    })),
);
