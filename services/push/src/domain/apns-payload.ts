// Presenter: a notification → the APNs JSON payload (docs/api/push.md, "Payload"), at most 4096 bytes
// of UTF-8 with the alert text cut to fit.
import type { Notification } from './notifications.js';

export const APNS_MAX_PAYLOAD = 4096;

interface ApnsPayload {
  aps: { alert: string; sound: 'default' };
  post_id?: string;
  from_user?: { username: string };
}

function render(n: Pick<Notification, 'postId' | 'fromUsername'>, alert: string): string {
  const payload: ApnsPayload = { aps: { alert, sound: 'default' } };
  if (n.postId !== undefined) payload.post_id = n.postId;
  if (n.fromUsername !== undefined) payload.from_user = { username: n.fromUsername };
  return JSON.stringify(payload);
}

export function apnsPayload(n: Pick<Notification, 'alert' | 'postId' | 'fromUsername'>): string {
  const whole = render(n, n.alert);
  if (Buffer.byteLength(whole) <= APNS_MAX_PAYLOAD) return whole;
  // Escapes make bytes per character vary: find the longest prefix (in code points) that fits.
  const points = Array.from(n.alert);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (Buffer.byteLength(render(n, points.slice(0, mid).join('') + '…')) <= APNS_MAX_PAYLOAD) lo = mid;
    else hi = mid - 1;
  }
  return render(n, points.slice(0, lo).join('') + '…');
}
