// The inboxes (docs/api/federation.md, "Inbox"): a request is verified before anything is stored — an
// unsigned or badly signed request, a stale Date, a Digest that does not match the body, a key whose
// owner is not the activity's actor are all 401 — then each activity id is handled once.
import { AppError, badRequest } from '@murmur/core';
import { parseJsonBody } from '@murmur/http';
import type { ActorDoc } from '../store/index.js';
import type { FederationContext } from './context.js';
import { requireFederation } from './discovery.js';
import { idOf, isRecord, typeOf } from './json.js';
import { actorOfKey } from './remote.js';
import { SignatureError, verifySignedRequest } from './signatures.js';
import { userByUsernameOr404 } from './users.js';
import { handleActivity } from './activities.js';

export interface InboxRequest {
  /** The personal inbox's user, undefined for the shared inbox. */
  username?: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | undefined;
}

function refused(reason: string): AppError {
  return new AppError(401, 'invalid_signature', `Signature refused: ${reason}.`, {
    headers: { 'WWW-Authenticate': 'Signature realm="activitypub"' },
  });
}

export async function receiveActivity(ctx: FederationContext, req: InboxRequest): Promise<void> {
  requireFederation(ctx);
  if (req.username !== undefined) await userByUsernameOr404(ctx, req.username);
  if (!req.body || req.body.length === 0) throw badRequest('The body must be an ActivityStreams activity.');

  // 1. Who signed it (nothing is stored before this is known).
  let signer: ActorDoc | null = null;
  try {
    await verifySignedRequest(
      { method: req.method, path: req.path, headers: req.headers, body: req.body },
      {
        origin: ctx.urls.base,
        now: ctx.clock.now(),
        lookupKey: async (keyId, refresh) => {
          const actor = await actorOfKey(ctx, keyId, refresh);
          if (!actor || actor.keyId !== keyId) return null;
          signer = actor;
          return ctx.keys.publicKey(actor.publicKeyPem);
        },
      },
    );
  } catch (err) {
    if (err instanceof SignatureError) throw refused(err.message);
    throw err;
  }
  const owner = signer as ActorDoc | null;
  if (!owner) throw refused('the signing key could not be found');

  // 2. What it says, and that the signer is who it says acts.
  let activity: unknown;
  try {
    activity = parseJsonBody(req.body.toString('utf8'));
  } catch {
    throw badRequest('The body is not JSON.');
  }
  if (!isRecord(activity) || !typeOf(activity))
    throw badRequest('The body must be an ActivityStreams activity.');
  const actorId = idOf(activity.actor);
  if (!actorId) throw badRequest('The activity names no actor.');
  if (actorId !== owner.actorId) throw refused("the key's owner is not the activity's actor");
  const id = idOf(activity.id);
  if (!id) throw badRequest('The activity has no id.');

  // 3. Once per activity id: a redelivery is answered without doing it again.
  if (!(await ctx.store.firstDelivery(id, typeOf(activity)!, actorId, ctx.clock.now()))) return;
  try {
    await handleActivity(ctx, activity, owner);
  } catch (err) {
    // Not done: the sender's retry must find it undone.
    await ctx.store.forgetDelivery(id);
    throw err;
  }
}
