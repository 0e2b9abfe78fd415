import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt with N = 2^17, r = 8, p = 1 (OWASP's recommendation); it needs 128 MiB, so maxmem allows 256 MiB. */
const N = 2 ** 17;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, so the parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(rr), Number(pp));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of no password: checking a login for an unknown account (or one without a password, signed up with
 * Google) against it costs the same scrypt as a real check, so the answer's timing does not tell whether the
 * account exists. Built from random bytes, so no password matches it.
 */
const NO_ACCOUNT_HASH = [
  'scrypt',
  N,
  r,
  p,
  randomBytes(16).toString('base64url'),
  randomBytes(KEY_LENGTH).toString('base64url'),
].join('$');

/** verifyPassword, with the same work done when there is no usable stored hash (an unknown account). */
export async function verifyPasswordOrDummy(password: string, stored: string | null | undefined): Promise<boolean> {
  const usable = typeof stored === 'string' && stored.startsWith('scrypt$');
  const matches = await verifyPassword(password, usable ? stored : NO_ACCOUNT_HASH);
  return usable && matches;
}

/** 256 random bits; only its SHA-256 is stored, so a database leak does not leak live tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
