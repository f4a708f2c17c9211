// The sign-in email. The mobile template is read on the phone that has the app, so it leads with a
// button that opens the app link; the desktop one leads with the link itself.
import { escapeHtml } from '@murmur/http';
import type { MailMessage } from './mailer.js';

const SUBJECT = 'Sign in to Murmur';

export function signinEmail(to: string, link: string, isMobile: boolean, ttlMinutes: number): MailMessage {
  const href = escapeHtml(link);
  const lifetime = `The link works once and expires in ${ttlMinutes} minutes. If you did not ask to sign in, ignore this email.`;
  if (isMobile) {
    return {
      to,
      subject: SUBJECT,
      text: `Open this link on your phone to sign in to the Murmur app:\n\n${link}\n\n${lifetime}\n`,
      html:
        `<p>Tap the button on your phone to sign in to the Murmur app.</p>` +
        `<p><a href="${href}" style="display:inline-block;padding:12px 20px;background:#2b6cb0;color:#fff;border-radius:6px;text-decoration:none">Open the app and sign in</a></p>` +
        `<p>${lifetime}</p>`,
    };
  }
  return {
    to,
    subject: SUBJECT,
    text: `Follow this link to sign in to Murmur:\n\n${link}\n\n${lifetime}\n`,
    html:
      `<p>Follow this link to sign in to Murmur:</p>` +
      `<p><a href="${href}">${href}</a></p>` +
      `<p>${lifetime}</p>`,
  };
}
