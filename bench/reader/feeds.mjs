// Local feed hosts for the reader benchmark: `hosts` HTTP servers on 127.0.0.1 (one port each, so the
// reader's per-host limit applies as it would to separate sites), each serving any number of RSS 2.0
// feeds at /f/<n>.xml. A feed's `generation` moves its window of items, so a poll finds new ones.
import { createServer } from 'node:http';

const PARAGRAPH =
  'Murmur reads feeds for people who like to own their reading. This paragraph stands in for the ' +
  'body of a real post, long enough that sanitising, summarising and storing it cost what they ' +
  'would cost for an ordinary article on an ordinary blog. ';

function item(feed, k) {
  const date = new Date(Date.UTC(2026, 0, 1) + k * 3_600_000).toUTCString();
  const body = `<p>${PARAGRAPH.repeat(4)}</p><p>Item ${k} of feed ${feed}, with <a href="/f/${feed}/${k}">a link</a>.</p>`;
  return (
    `<item><title>Feed ${feed} item ${k}</title><link>/f/${feed}/${k}</link><guid>f${feed}-i${k}</guid>` +
    `<pubDate>${date}</pubDate><description><![CDATA[${body}]]></description></item>`
  );
}

/** Feed `feed` as RSS 2.0 with `count` items, the newest numbered `newest` (~1.1 KB per item). */
export function rssDocument(feed, newest, count) {
  const items = [];
  for (let k = newest; k > newest - count; k--) items.push(item(feed, k));
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed ${feed}</title>` +
    `<link>/</link>${items.join('')}</channel></rss>`
  );
}

/**
 * @param {{ hosts: number, itemsPerFeed: number, newPerGeneration: number }} options
 */
export async function startFeedHosts({ hosts, itemsPerFeed, newPerGeneration }) {
  const generation = new Map();
  let requests = 0;
  const servers = [];
  const handler = (req, res) => {
    requests++;
    const m = /^\/f\/(\d+)\.xml$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    const feed = Number(m[1]);
    const newest = itemsPerFeed + (generation.get(feed) ?? 0) * newPerGeneration;
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
    res.end(rssDocument(feed, newest, itemsPerFeed));
  };
  for (let i = 0; i < hosts; i++) {
    const server = createServer(handler);
    server.keepAliveTimeout = 60_000;
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  const origins = servers.map((s) => `http://127.0.0.1:${s.address().port}`);
  return {
    /** The URL of feed n (spread over the hosts). */
    url: (n) => `${origins[n % origins.length]}/f/${n}.xml`,
    bump: (n) => generation.set(n, (generation.get(n) ?? 0) + 1),
    requests: () => requests,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise((resolve) => {
              s.closeAllConnections();
              s.close(resolve);
            }),
        ),
      ),
  };
}
