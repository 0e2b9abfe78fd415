import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The identity proof (`otp`) a user presents at authorize. The shop server issues it to a
 * logged-in user; the messaging server accepts a connect only under the id it names. It is an
 * HMAC over the user id and an expiry, so any process that knows the secret can check it
 * without a shared store: `base64url(json{u,e}).base64url(hmac-sha256)`.
 */
export interface OtpClaims {
  userId: string;
  expiresAt: number;
}

const encode = (buffer: Buffer) => buffer.toString('base64url');

function sign(payload: string, secret: string): string {
  return encode(createHmac('sha256', secret).update(payload).digest());
}

export function issueOtp(userId: string, secret: string, ttlMs = 5 * 60_000, now = Date.now()): string {
  const payload = encode(Buffer.from(JSON.stringify({ u: userId, e: now + ttlMs })));
  return `${payload}.${sign(payload, secret)}`;
}

/** The claims of a valid, unexpired token, or null for anything else. */
export function verifyOtp(token: unknown, secret: string, now = Date.now()): OtpClaims | null {
  if (typeof token !== 'string') return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; e?: unknown };
    if (typeof claims.u !== 'string' || typeof claims.e !== 'number' || claims.e < now) return null;
    return { userId: claims.u, expiresAt: claims.e };
  } catch {
    return null;
  }
}
