export { identityVerifier, authUnavailable, type IdentityVerifierOptions } from './identity-verifier.js';
