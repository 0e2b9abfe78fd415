import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The identity proof (`otp`) a user presents at authorize. The shop server issues it to a
 * logged-in user; the messaging server accepts a connect only under the id it names. It is an
 * HMAC over the user id, the shop session it was issued in, its issue time and its expiry, so any
 * process that knows the secret can check it without a shared store:
 * `base64url(json{u,s,i,e}).base64url(hmac-sha256)`. Revocation (control.ts) refuses proofs
 * issued before a logout or a password change.
 */
export interface OtpClaims {
  userId: string;
  /** The shop session (login) the proof was issued in; empty when none. */
  sessionRef: string;
  issuedAt: number;
  expiresAt: number;
  /**
   * The WeChat identity (`appid:openid`) the shop knows this user by, empty when none: the only wxmpId the
   * messaging server records for the user, so nobody can have another person's WeChat notified.
   */
  wxmp: string;
}

export const OTP_TTL_MS = 5 * 60_000;

const encode = (buffer: Buffer) => buffer.toString('base64url');

function sign(payload: string, secret: string): string {
  return encode(createHmac('sha256', secret).update(payload).digest());
}

/**
 * A reference to a shop session that names it without revealing it: the same login token hash always
 * gives the same reference, from which the token cannot be recovered.
 */
export function sessionRefOf(tokenHash: string): string {
  return createHash('sha256').update(`lensmate-messaging-session:${tokenHash}`).digest('base64url').slice(0, 22);
}

export function issueOtp(
  userId: string,
  secret: string,
  ttlMs = OTP_TTL_MS,
  now = Date.now(),
  sessionRef = '',
  wxmp = '',
): string {
  const claims = { u: userId, s: sessionRef, i: now, e: now + ttlMs, ...(wxmp ? { w: wxmp } : {}) };
  const payload = encode(Buffer.from(JSON.stringify(claims)));
  return `${payload}.${sign(payload, secret)}`;
}

/**
 * The claims of a valid, unexpired token, or null for anything else. With `evenExpired`, a genuine token past
 * its expiry is answered too (a reconnect resends the proof its session was opened with).
 */
export function verifyOtp(token: unknown, secret: string, now = Date.now(), evenExpired = false): OtpClaims | null {
  if (typeof token !== 'string' || token.length > 1024) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { u, s, i, e, w } = claims;
    if (typeof u !== 'string' || typeof e !== 'number' || (e < now && !evenExpired)) return null;
    return {
      userId: u,
      sessionRef: typeof s === 'string' ? s : '',
      issuedAt: typeof i === 'number' ? i : 0,
      expiresAt: e,
      wxmp: typeof w === 'string' ? w : '',
    };
  } catch {
    return null;
  }
}
