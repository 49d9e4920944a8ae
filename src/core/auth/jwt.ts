import { createPublicKey, createSecretKey, KeyObject } from 'node:crypto';
import jwt, { Algorithm, JwtPayload } from 'jsonwebtoken';
import { config } from '../config';
import { UnauthorizedError } from '../errors';
import type { TokenClaims } from '../http/types';

// One algorithm, chosen by configuration: a token signed otherwise (or with alg "none") is refused.
const algorithm: Algorithm = config.auth.publicKey ? 'RS256' : 'HS256';
// The key object is built once: given a string, jsonwebtoken would first try it as a public key on
// every call (a thrown and caught OpenSSL error per request) before taking it as the HS256 secret.
let key: KeyObject | undefined;
const verifyKey = (): KeyObject => {
  if (key) return key;
  const material = config.auth.publicKey ?? config.auth.secret;
  if (!material) throw new UnauthorizedError('Token verification is not configured');
  key = config.auth.publicKey ? createPublicKey(material) : createSecretKey(Buffer.from(material));
  return key;
};

/*
 * Verified tokens, by the whole token string, until they expire: a client sends the same token on
 * every request, and checking its HMAC/RSA signature and claims again costs more than the rest of
 * authentication. The key is the exact token, whose claims (company, filiais, scopes) are signed, so
 * an entry only ever answers for the token that was verified; an expired entry is verified again
 * (and refused). Bounded: the least recently used entry goes first.
 */
const VERIFIED_LIMIT = 10_000;
const verified = new Map<string, TokenClaims>();

/** jsonwebtoken's rule: a token is expired from the second its `exp` names. */
const unexpired = (claims: TokenClaims): boolean => Math.floor(Date.now() / 1000) < claims.exp;

export function verifyToken(token: string): TokenClaims {
  const hit = verified.get(token);
  if (hit && unexpired(hit)) {
    // Most recently used last (Map keeps insertion order), so eviction takes the coldest.
    verified.delete(token);
    verified.set(token, hit);
    return hit;
  }
  if (hit) verified.delete(token);
  const claims = verifySignedToken(token);
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
  verified.set(token, claims);
  return claims;
}

function verifySignedToken(token: string): TokenClaims {
  let payload: string | JwtPayload;
  try {
    payload = jwt.verify(token, verifyKey(), {
      algorithms: [algorithm],
      issuer: config.auth.issuer,
      audience: config.auth.audience,
    });
  } catch (err) {
    const expired = (err as Error).name === 'TokenExpiredError';
    throw new UnauthorizedError(expired ? 'Token expired' : 'Invalid token', expired ? 'TOKEN_EXPIRED' : 'INVALID_TOKEN');
  }
  if (typeof payload === 'string' || typeof payload.exp !== 'number') throw new UnauthorizedError('Token must carry exp', 'INVALID_TOKEN');
  const claims = payload as Partial<TokenClaims>;
  if (typeof claims.sub !== 'string' || typeof claims.companyId !== 'string' || !Array.isArray(claims.filiais)) {
    throw new UnauthorizedError('Token lacks sub, companyId or filiais', 'INVALID_TOKEN');
  }
  // Shared by every request that presents this token: read-only.
  return Object.freeze({
    sub: claims.sub,
    companyId: claims.companyId,
    filiais: Object.freeze(claims.filiais.map(String)) as string[],
    scope: typeof claims.scope === 'string' ? claims.scope : '',
    exp: payload.exp,
    iat: payload.iat,
  });
}

/** Mints a token with the configured HS256 secret (CLI and tests; RS256 deployments mint elsewhere). */
export function signToken(
  claims: { sub: string; companyId: string; filiais: string[]; scope: string },
  ttl: string | number = '8h',
): string {
  const secret = config.auth.secret;
  if (!secret) throw new Error('JWT_SECRET is not configured');
  return jwt.sign(claims, secret, {
    algorithm: 'HS256',
    expiresIn: ttl as jwt.SignOptions['expiresIn'],
    ...(config.auth.issuer ? { issuer: config.auth.issuer } : {}),
    ...(config.auth.audience ? { audience: config.auth.audience } : {}),
  });
}
