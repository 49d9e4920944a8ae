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

export function verifyToken(token: string): TokenClaims {
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
  return {
    sub: claims.sub,
    companyId: claims.companyId,
    filiais: claims.filiais.map(String),
    scope: typeof claims.scope === 'string' ? claims.scope : '',
    exp: payload.exp,
    iat: payload.iat,
  };
}

/** Mints a token with the configured HS256 secret (CLI and tests; RS256 deployments mint elsewhere). */
export function signToken(claims: { sub: string; companyId: string; filiais: string[]; scope: string }, ttl: string | number = '8h'): string {
  const secret = config.auth.secret;
  if (!secret) throw new Error('JWT_SECRET is not configured');
  return jwt.sign(claims, secret, {
    algorithm: 'HS256',
    expiresIn: ttl as jwt.SignOptions['expiresIn'],
    ...(config.auth.issuer ? { issuer: config.auth.issuer } : {}),
    ...(config.auth.audience ? { audience: config.auth.audience } : {}),
  });
}
