// Identity's answers to the credential questions of every service (docs/platform.md,
// "Authentication"): bearer tokens with identity.token.verify, logins with identity.credentials.verify,
// and the revocations identity announces (evt.identity.token.revoked, heard by every replica). This is
// the one place outside the identity service that knows those subjects; createHttpApp takes it as
// its CredentialVerifier.
import { identity, SCOPES } from '@murmur/contracts';
import type { Bus, BusHeaders } from '@murmur/bus';
import { AppError, type Logger } from '@murmur/core';
import type { AuthInfo, CredentialVerifier } from '@murmur/http';

export interface IdentityVerifierOptions {
  /** How long a question may wait for identity's answer. Default 3 s. */
  verifyTimeoutMs?: number;
}

/** Answer of identity for a bad question (4xx): the credential is as good as unknown. */
function refusedByIdentity(err: unknown): boolean {
  return err instanceof AppError && err.status < 500;
}

export const authUnavailable = () =>
  new AppError(503, 'unavailable', 'Authentication is temporarily unavailable.', {
    headers: { 'Retry-After': '5' },
  });

/** The credential verifier that asks identity over `bus`. */
export function identityVerifier(
  bus: Bus,
  logger: Logger,
  options: IdentityVerifierOptions = {},
): CredentialVerifier {
  const timeoutMs = options.verifyTimeoutMs ?? 3_000;
  return {
    async verifyToken(token: string, headers: BusHeaders): Promise<AuthInfo | null> {
      let answer;
      try {
        answer = await bus.request(identity.tokenVerify, { token }, { headers, timeoutMs });
      } catch (err) {
        if (refusedByIdentity(err)) {
          logger.warn({ err }, 'identity refused a token verification request');
          return null;
        }
        logger.error({ err }, 'token verification failed');
        throw authUnavailable();
      }
      if (!answer.active) return null;
      return {
        userId: answer.userId,
        username: answer.username,
        kind: answer.kind,
        scopes: answer.scopes,
        clientId: answer.clientId,
        tokenHash: answer.tokenHash,
      };
    },

    async verifyCredentials(login: string, token: string, headers: BusHeaders): Promise<AuthInfo | null> {
      let answer;
      try {
        answer = await bus.request(identity.credentialsVerify, { login, token }, { headers, timeoutMs });
      } catch (err) {
        if (refusedByIdentity(err)) return null;
        logger.error({ err }, 'credentials verification failed');
        throw authUnavailable();
      }
      if (!answer.ok) return null;
      // A login acts as the app token it carries: every scope. The authenticator fills in the hash.
      return {
        userId: answer.userId,
        username: answer.username,
        kind: 'app',
        scopes: [...SCOPES],
        clientId: '',
        tokenHash: '',
      };
    },

    async watchRevocations(forget: (tokenHash: string) => void) {
      const subscription = await bus.listen(identity.tokenRevoked, async (event) => {
        forget(event.data.tokenHash);
      });
      return { close: () => subscription.unsubscribe() };
    },
  };
}
