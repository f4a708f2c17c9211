// Web Push beyond the interface (docs/api/push.md, "Web Push"): browsers register a PushSubscription
// and get the same notifications. Payloads are encrypted for the browser (RFC 8291, aes128gcm) and
// signed with the service's VAPID key (RFC 8292) by the `web-push` library; the request itself is
// ours (node:https, 10 s), sent only to the push-service hosts the operator allows.
import https from 'node:https';
import webpush from 'web-push';
import { badRequest } from '@murmur/core';
import type { WebSubDoc } from '../store/index.js';
import type { PushContext, VapidKeys } from './context.js';
import type { Notification } from './notifications.js';
import { MAX_DEVICES_PER_USER } from './params.js';

/** A Web Push message stays queued at the push service for a day at most. */
export const WEB_PUSH_TTL_S = 86_400;
export const WEB_PUSH_TIMEOUT_MS = 10_000;

/** The service's VAPID key pair: made at first use, kept in the push store, shared by replicas. */
export async function vapidKeys(ctx: PushContext): Promise<VapidKeys> {
  if (ctx.vapid) return ctx.vapid;
  const stored = await ctx.store.setting('vapid');
  const doc = stored?.publicKey
    ? stored
    : await ctx.store.settingOnce({ _id: 'vapid', ...webpush.generateVAPIDKeys() });
  ctx.vapid = { publicKey: doc.publicKey!, privateKey: doc.privateKey! };
  return ctx.vapid;
}

export function vapidSubject(ctx: PushContext): string {
  return ctx.config.PUSH_VAPID_SUBJECT ?? `mailto:push@${new URL(ctx.config.PUBLIC_URL).hostname}`;
}

/** Whether `host` (with its port, when one is given) is one of the allowed push-service hosts. */
export function allowedEndpointHost(allowed: readonly string[], url: URL): boolean {
  return allowed.some((entry) =>
    entry.startsWith('*.')
      ? url.hostname.endsWith(entry.slice(1)) && url.hostname.length > entry.length - 1
      : entry === url.host || entry === url.hostname,
  );
}

function base64urlBytes(value: string): number | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, 'base64url').length;
}

export interface WebSubInput {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Checks a PushSubscription's parts: an https endpoint on an allowed host, a P-256 key, a 16-byte secret. */
export function checkSubscription(ctx: PushContext, input: WebSubInput): void {
  let url: URL;
  try {
    url = new URL(input.endpoint);
  } catch {
    throw badRequest('endpoint: must be an absolute https URL', 'endpoint');
  }
  if (url.protocol !== 'https:' || url.username || url.password || input.endpoint.length > 2048) {
    throw badRequest('endpoint: must be an absolute https URL without credentials', 'endpoint');
  }
  if (!allowedEndpointHost(ctx.config.PUSH_WEB_ENDPOINT_HOSTS, url)) {
    throw badRequest('endpoint: is not on a known push service', 'endpoint');
  }
  const key = Buffer.from(input.p256dh, 'base64url');
  if (base64urlBytes(input.p256dh) !== 65 || key[0] !== 4) {
    throw badRequest('keys.p256dh: must be an uncompressed P-256 public key (base64url)', 'keys.p256dh');
  }
  if (base64urlBytes(input.auth) !== 16) {
    throw badRequest('keys.auth: must be a 16-byte secret (base64url)', 'keys.auth');
  }
}

/** Registers a browser; a repeat answers the stored one, an endpoint of another user moves here. */
export async function registerWebSub(
  ctx: PushContext,
  userId: number,
  input: WebSubInput,
): Promise<{ created: boolean; subscription: WebSubDoc }> {
  checkSubscription(ctx, input);
  for (let round = 0; round < 3; round++) {
    const existing = await ctx.store.webSubByEndpoint(input.endpoint);
    if (existing?.userId === userId && existing.p256dh === input.p256dh && existing.auth === input.auth) {
      return { created: false, subscription: existing };
    }
    // Another user's, or the browser's keys changed: the new registration replaces it.
    if (existing) await ctx.store.deleteWebSubById(existing._id);
    const subscription = await ctx.store.insertWebSub({ userId, ...input, createdAt: ctx.clock.now() });
    if (subscription) {
      await ctx.store.trimWebSubsOfUser(userId, MAX_DEVICES_PER_USER);
      return { created: true, subscription };
    }
  }
  throw badRequest('The subscription is being registered by another request; try again.', 'endpoint');
}

export function unregisterWebSub(ctx: PushContext, userId: number, endpoint: string): Promise<boolean> {
  return ctx.store.deleteWebSubOfUser(userId, endpoint);
}

/** The JSON a service worker receives (decrypted by the browser). */
export function webPushPayload(n: Pick<Notification, 'kind' | 'alert' | 'postId' | 'fromUsername'>): string {
  return JSON.stringify({
    kind: n.kind,
    alert: n.alert,
    ...(n.postId === undefined ? {} : { post_id: n.postId }),
    ...(n.fromUsername === undefined ? {} : { from_user: { username: n.fromUsername } }),
  });
}

export interface WebPushAnswer {
  status: number;
  reason: string;
}

/** Sends one encrypted message to the subscription's push service. Never throws. */
export async function sendWebPush(ctx: PushContext, sub: WebSubDoc, payload: string): Promise<WebPushAnswer> {
  const url = new URL(sub.endpoint);
  // Checked again at send time: the allowed hosts may have changed since the registration.
  if (url.protocol !== 'https:' || !allowedEndpointHost(ctx.config.PUSH_WEB_ENDPOINT_HOSTS, url)) {
    return { status: 0, reason: 'EndpointNotAllowed' };
  }
  const keys = await vapidKeys(ctx);
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    payload,
    {
      TTL: WEB_PUSH_TTL_S,
      contentEncoding: 'aes128gcm',
      vapidDetails: { subject: vapidSubject(ctx), publicKey: keys.publicKey, privateKey: keys.privateKey },
    },
  );
  return new Promise<WebPushAnswer>((resolve) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        headers: { ...details.headers, 'content-length': String(details.body.length) },
        timeout: WEB_PUSH_TIMEOUT_MS,
        minVersion: 'TLSv1.2',
        ...(ctx.webPushCa === undefined ? {} : { ca: ctx.webPushCa }),
      },
      (res) => {
        // The answer's body is a reason at most; read a little and drop the rest.
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < 200) text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: text.slice(0, 100).trim() }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, reason: '' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('Timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, reason: err.code ?? err.message }));
    req.end(details.body);
  });
}
