// A stand-in for Apple: a JWKS endpoint on 127.0.0.1 and RS256 identity tokens signed with its keys.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export const APPLE_ISS = 'https://appleid.apple.com';
export const CLIENT_ID = 'com.example.reader';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function makeKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, jwk };
}

export interface FakeApple {
  jwksUrl: string;
  /** How many times the JWKS was fetched. */
  hits: number;
  /** Keys published at the JWKS URL (change it to rotate). */
  published: SigningKey[];
  key: SigningKey;
  /** An identity token for `sub`, signed with `key` unless another is given; claims override the defaults. */
  token(sub: string, claims?: JWTPayload, key?: SigningKey): Promise<string>;
  env(): Record<string, string>;
  stop(): Promise<void>;
}

export async function startFakeApple(): Promise<FakeApple> {
  const key = await makeKey('apple-key-1');
  const fake = { hits: 0, published: [key] } as FakeApple;
  const server: Server = createServer((req, res) => {
    fake.hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: fake.published.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  Object.assign(fake, {
    jwksUrl: `http://127.0.0.1:${port}/auth/keys`,
    key,
    async token(sub: string, claims: JWTPayload = {}, signWith: SigningKey = key) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: APPLE_ISS, aud: CLIENT_ID, sub, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: signWith.kid })
        .sign(signWith.privateKey);
    },
    env: () => ({
      APPLE_JWKS_URL: fake.jwksUrl,
      APPLE_CLIENT_IDS: `${CLIENT_ID},com.example.other`,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return fake;
}
