// The auto-escaping template of identity's screens (docs/security.md): every value interpolated into
// `html\`…\`` is escaped unless it is itself the result of `html`, so client-supplied text (an app's
// name, a client_id, a state) can never become markup.
import type { FastifyReply } from 'fastify';
import { escapeHtml, HTML_PAGE_HEADERS } from '@murmur/http';

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Stylesheet of the screens: served by identity itself, since the CSP allows styles from 'self' only. */
export const STYLESHEET_PATH = '/indieauth/screen.css';

export function page(title: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        <main class="card">${body}</main>
        <footer>Murmur</footer>
      </body>
    </html> `;
}

/**
 * Sends one of our screens: the page headers of docs/security.md, never cached (they carry CSRF
 * tokens and request ids), and no Referer to the client's site when the person follows a link.
 */
export function sendHtml(reply: FastifyReply, status: number, body: SafeHtml): FastifyReply {
  return reply
    .code(status)
    .headers(HTML_PAGE_HEADERS)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(body.text);
}

export const SCREEN_CSS = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;
 background:#eef1f5;color:#1d2430;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:24px}
.card{background:#fff;max-width:480px;width:100%;border-radius:14px;box-shadow:0 2px 12px rgba(20,30,50,.12);padding:28px 32px}
footer{margin-top:16px;color:#7a8494;font-size:13px}
h1{font-size:22px;margin:0 0 2px}
h2{font-size:18px;margin:0 0 8px}
.app{display:flex;gap:16px;align-items:center;margin-bottom:20px}
.logo{width:64px;height:64px;border-radius:12px;object-fit:cover;flex:none;background:#dfe5ee}
.placeholder{display:flex;align-items:center;justify-content:center;font-size:30px;font-weight:600;color:#3d4a5c}
.client-id{margin:0;color:#5b6576;font-size:13px;word-break:break-all;font-family:ui-monospace,Menlo,monospace}
.lead{margin:0 0 16px}
.me{display:block;color:#5b6576;font-size:13px;word-break:break-all}
fieldset{border:1px solid #d8dee8;border-radius:10px;padding:10px 14px 6px;margin:0 0 16px}
legend{padding:0 6px;font-weight:600}
.scope{display:flex;gap:10px;align-items:flex-start;margin:0 0 8px}
.scope input{margin-top:5px}
.scope small{display:block;color:#5b6576}
.notice{background:#fff7e0;border:1px solid #f0d68a;border-radius:10px;padding:10px 14px;margin:0 0 16px}
.error{background:#fdecec;border:1px solid #efb4b4;border-radius:10px;padding:10px 14px;margin:0 0 16px}
.redirect{color:#3d4a5c;font-size:14px;margin:0 0 20px}
.uri{display:block;font-family:ui-monospace,Menlo,monospace;font-size:12px;word-break:break-all;color:#5b6576}
label.field{display:block;font-weight:600;margin:0 0 6px}
input[type=email]{width:100%;font:inherit;padding:10px 12px;border:1px solid #c3ccd9;border-radius:8px;margin:0 0 16px}
.actions{display:flex;gap:12px;justify-content:flex-end}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 20px;cursor:pointer;border:1px solid transparent}
.primary{background:#2b6cb0;color:#fff}
.primary:hover{background:#245a94}
.secondary{background:#fff;color:#1d2430;border-color:#c3ccd9}
.link{background:none;border:none;padding:0;color:#2b6cb0;font-weight:400;font-size:14px;text-decoration:underline}
.signout{margin:20px 0 0;text-align:center}
.hint{color:#5b6576;font-size:14px;margin:16px 0 0}
`;
