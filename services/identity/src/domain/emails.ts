// Email addresses we accept (docs/security.md). We never deliver to anything that could smuggle SMTP or header
// syntax (whitespace, control characters, angle brackets, commas), even though RFC 5321 allows more.
const EMAIL_PATTERN = /^[^\s@<>,;"()\\[\]\p{Cc}]+@[^\s@<>,;"()\\[\]\p{Cc}]+$/u;

export const EMAIL_MAX_LENGTH = 254;

/** Trimmed address, or null when it is not one we accept. */
export function parseEmail(input: string): string | null {
  const email = input.trim();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return null;
  return EMAIL_PATTERN.test(email) ? email : null;
}

/** Emails are compared case-insensitively. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
