// Identity's own small HTML pages. Everything interpolated is escaped; the platform's page headers
// (nosniff, no framing, strict CSP) always go with them.
import type { FastifyReply } from 'fastify';
import { escapeHtml, HTML_PAGE_HEADERS } from '@murmur/http';

export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  paragraphs: string[],
): FastifyReply {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`;
  return reply.code(status).headers(HTML_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}
