// Signing keys: one RSA key pair per local user, made when first needed (a remote server fetching the
// actor, or the first delivery) and kept for ever, and one for the instance actor. RSA with SHA-256 is
// what every fediverse server verifies (docs/adr/0020-federation-activitypub.md). Parsed keys are kept
// per process: parsing a PEM costs more than signing with it.
import { createPrivateKey, createPublicKey, generateKeyPair, webcrypto, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { FederationStore, KeyDoc } from '../store/index.js';

const generate = promisify(generateKeyPair);

/** The instance actor's key is stored under this owner. */
export const INSTANCE_KEY_OWNER = 0;

export interface SigningKey {
  owner: number;
  publicKeyPem: string;
  /** For WebCrypto's RSASSA-PKCS1-v1_5 with SHA-256 (domain/signatures.ts). */
  privateKey: webcrypto.CryptoKey;
}

export class KeyCache {
  private readonly signing = new Map<number, Promise<SigningKey>>();
  private readonly verifying = new Map<string, KeyObject>();

  constructor(private readonly store: FederationStore) {}

  /** The key pair of `owner` (a user id, or INSTANCE_KEY_OWNER), made and stored on first use. */
  signingKey(owner: number): Promise<SigningKey> {
    let key = this.signing.get(owner);
    if (!key) {
      key = this.load(owner);
      this.signing.set(owner, key);
      key.catch(() => this.signing.delete(owner));
    }
    return key;
  }

  private async load(owner: number): Promise<SigningKey> {
    let doc = await this.store.keyOf(owner);
    if (!doc) {
      const pair = await generate('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      const fresh: KeyDoc = {
        _id: owner,
        publicKeyPem: pair.publicKey,
        privateKeyPem: pair.privateKey,
        createdAt: new Date(),
      };
      doc = await this.store.keepKey(fresh);
    }
    const der = createPrivateKey(doc.privateKeyPem).export({ type: 'pkcs8', format: 'der' });
    const privateKey = await webcrypto.subtle.importKey(
      'pkcs8',
      der,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return { owner, publicKeyPem: doc.publicKeyPem, privateKey };
  }

  /** A remote public key, parsed once per PEM text (bounded: a key is small, keys are few). */
  publicKey(pem: string): KeyObject {
    let key = this.verifying.get(pem);
    if (!key) {
      key = createPublicKey(pem);
      if (this.verifying.size >= 10_000) this.verifying.clear();
      this.verifying.set(pem, key);
    }
    return key;
  }
}
