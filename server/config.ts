import { isIP } from 'node:net';
import { join } from 'node:path';
import { type MessagingConfig, messagingConfigFromEnv } from './messaging/config';
import { persistedSecret } from './messaging/secrets';

/**
 * The whole server configuration, read once from the environment at start. Every value has a
 * working default for a single embedded process; a value that is set but malformed stops the start
 * with a message naming the variable.
 */
export interface PaypalConfig {
  clientId: string;
  clientSecret: string;
  /** https://api-m.sandbox.paypal.com or https://api-m.paypal.com */
  apiBase: string;
}

export interface BraintreeConfig {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** https://payments.sandbox.braintree-api.com/graphql or https://payments.braintree-api.com/graphql */
  graphqlUrl: string;
}

export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  dataDir: string;
  uploadDir: string;
  h5Dir: string;
  /** Where the offline mail adapter writes messages. */
  outboxDir: string;
  publicBaseUrl: string;
  otpSecret: string;
  stripeSecretKey: string;
  stripePublishableKey: string;
  paypal: PaypalConfig | null;
  braintree: BraintreeConfig | null;
  seventeenTrackKey: string;
  smtpUrl: string;
  mailFrom: string;
  googleClientId: string;
  maxUploadBytes: number;
  /**
   * Requests allowed per window and per client IP on every route that hashes a password or mails a code (login,
   * register, forget_password, both password changes, Google login), and per account on those that name one.
   */
  authRateLimit: { max: number; windowMs: number };
  /** check_account answers whether an e-mail has an account: limited per client IP. */
  checkAccountRateLimitMax: number;
  /**
   * Wrong passwords for one account from all IPs together within the auth window past which only clients that
   * signed in to that account before (or reset its password) may still try: a distributed guesser is slowed to
   * this many guesses per window while the owner keeps signing in.
   */
  loginAccountFailureMax: number;
  /** A session token unused for this long expires; every use within it starts it again (sliding). */
  tokenIdleTtlMs: number;
  /** However often it is used, a token expires this long after it was issued. */
  tokenMaxAgeMs: number;
  /** Signs the expiring URLs of private uploads (prescription photos); generated into the data directory. */
  privateUploadSecret: string;
  /** How long a signed URL of a private upload stays valid: answers sign them afresh at every read. */
  privateUploadUrlTtlMs: number;
  /** Extra sources for the site's Content-Security-Policy (payment SDKs, a messaging host on another origin). */
  csp: CspSources;
  seedOnFirstRun: boolean;
  /**
   * Which peers may say who the client is in X-Forwarded-For / X-Forwarded-Proto: false (nobody, the default),
   * the addresses/CIDRs of the proxies in front, or how many proxy hops to trust.
   */
  trustProxy: TrustProxy;
  /** Shared state for several server processes: every rate limit counts in Redis when set. */
  redisUrl: string;
  /** The prefix of the rate limits' keys in Redis. */
  rateLimitRedisPrefix: string;
  logLevel: string;
  messaging: MessagingConfig | null;
}

export type TrustProxy = false | number | string[];

export interface CspSources {
  scriptSrc: string[];
  frameSrc: string[];
  connectSrc: string[];
}

export class ConfigError extends Error {}

/** The environment, as process.env or any plain map of variables. */
export type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false (or 1 or 0), got "${raw}"`);
}

function readUrl(env: Env, name: string, schemes: string[]): string {
  const raw = env[name] ?? '';
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${schemes.join(', ')}), got "${raw}"`);
  }
  if (!schemes.includes(url.protocol.replace(':', ''))) {
    throw new ConfigError(`${name} must start with ${schemes.map((s) => `${s}://`).join(' or ')}, got "${raw}"`);
  }
  return raw;
}

function requireTogether(env: Env, names: string[]): boolean {
  const set = names.filter((name) => env[name]);
  if (set.length > 0 && set.length < names.length) {
    const missing = names.filter((name) => !env[name]);
    throw new ConfigError(`${missing.join(', ')} must be set together with ${set.join(', ')}`);
  }
  return set.length === names.length;
}

/** proxy-addr's names for whole private ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: empty, 0 or false trust nobody; a hop count 1 to 10; or a comma list of proxy addresses, CIDRs
 * and range names. "true" once trusted every peer, letting any client choose its own IP for the rate limits,
 * so it is refused with the two forms that replace it.
 */
function readTrustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be from 1 to 10, got "${raw}"`);
    return hops;
  }
  if (['true', 'yes', 'on', '*', 'all'].includes(raw.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY="${raw}" would trust every client's X-Forwarded-For: name the proxies ` +
        '(TRUST_PROXY=10.0.0.5,10.1.0.0/16) or give the number of proxy hops in front (TRUST_PROXY=1)',
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    const valid = PROXY_RANGE_NAMES.includes(entry) || (family !== 0 && validBits && rest.length === 0);
    if (!valid) {
      throw new ConfigError(
        `TRUST_PROXY must be a hop count, or proxy addresses, CIDRs or ${PROXY_RANGE_NAMES.join('/')} separated by ` +
          `commas; "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

/**
 * A list of extra CSP sources: origins or URL prefixes (https://js.stripe.com, wss://chat.example.com/path).
 * Keywords ('unsafe-inline', *, data:) are refused: configuration may add a provider, never loosen the policy.
 */
function readCspSources(env: Env, name: string): string[] {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return [];
  return raw.split(/[\s,]+/).map((source) => {
    let url: URL | null = null;
    try {
      url = new URL(source);
    } catch {
      url = null;
    }
    if (!url || !['https:', 'http:', 'wss:', 'ws:'].includes(url.protocol) || /[;'"*]/.test(source)) {
      throw new ConfigError(
        `${name} must list origins or URL prefixes (https://js.example.com), separated by spaces or commas; ` +
          `"${source}" is not one`,
      );
    }
    return source;
  });
}

const DAY_MS = 24 * 3600_000;

export function loadConfig(env: Env = process.env, options: { messaging?: boolean } = {}): ServerConfig {
  const dataDir = env.DATA_DIR || 'data';
  const databaseUrl = env.DATABASE_URL || join(dataDir, 'lensmate.sqlite');
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be postgres://… or a SQLite file path, got "${databaseUrl}"`);
  }
  const host = env.HOST || '0.0.0.0';
  if (!/^[\w.:-]+$/.test(host)) throw new ConfigError(`HOST must be a host name or an IP address, got "${host}"`);
  const stripeSecretKey = env.STRIPE_SECRET_KEY || '';
  if (stripeSecretKey && !/^(sk|rk)_(test|live)_\w+$/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…');
  }
  const stripePublishableKey = env.STRIPE_PUBLISHABLE_KEY || '';
  if (stripePublishableKey && !/^pk_(test|live)_\w+$/.test(stripePublishableKey)) {
    throw new ConfigError('STRIPE_PUBLISHABLE_KEY must look like pk_test_… or pk_live_…');
  }
  const paypalEnv = env.PAYPAL_ENV || 'sandbox';
  if (!['sandbox', 'live'].includes(paypalEnv)) {
    throw new ConfigError(`PAYPAL_ENV must be sandbox or live, got "${paypalEnv}"`);
  }
  const paypal = requireTogether(env, ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'])
    ? {
        clientId: env.PAYPAL_CLIENT_ID as string,
        clientSecret: env.PAYPAL_CLIENT_SECRET as string,
        apiBase: paypalEnv === 'live' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com',
      }
    : null;
  const braintreeEnv = env.BRAINTREE_ENV || 'sandbox';
  if (!['sandbox', 'production'].includes(braintreeEnv)) {
    throw new ConfigError(`BRAINTREE_ENV must be sandbox or production, got "${braintreeEnv}"`);
  }
  const braintree = requireTogether(env, ['BRAINTREE_MERCHANT_ID', 'BRAINTREE_PUBLIC_KEY', 'BRAINTREE_PRIVATE_KEY'])
    ? {
        merchantId: env.BRAINTREE_MERCHANT_ID as string,
        publicKey: env.BRAINTREE_PUBLIC_KEY as string,
        privateKey: env.BRAINTREE_PRIVATE_KEY as string,
        graphqlUrl:
          braintreeEnv === 'production'
            ? 'https://payments.braintree-api.com/graphql'
            : 'https://payments.sandbox.braintree-api.com/graphql',
      }
    : null;
  const smtpUrl = readUrl(env, 'SMTP_URL', ['smtp', 'smtps']);
  const mailFrom = env.MAIL_FROM || 'Lensmate <no-reply@lensmate.test>';
  if (!/@/.test(mailFrom)) throw new ConfigError(`MAIL_FROM must contain an e-mail address, got "${mailFrom}"`);
  const googleClientId = env.GOOGLE_CLIENT_ID || '';
  if (googleClientId && !/\.apps\.googleusercontent\.com$/.test(googleClientId)) {
    throw new ConfigError('GOOGLE_CLIENT_ID must end with .apps.googleusercontent.com');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  const redisUrl = readUrl(env, 'REDIS_URL', ['redis', 'rediss']);
  const authMax = readInt(env, 'AUTH_RATE_LIMIT_MAX', 10, 1, 100000);
  const otpSecret = env.MESSAGING_OTP_SECRET || persistedSecret(dataDir, 'otp-secret');
  if (otpSecret.length < 16) throw new ConfigError('MESSAGING_OTP_SECRET must be at least 16 characters');
  let messaging: MessagingConfig | null = null;
  if (options.messaging !== false) {
    try {
      // ProcessEnv is widened by Taro's typings (TARO_ENV); the messaging config reads plain variables only.
      const messagingEnv = { ...env, MESSAGING_OTP_SECRET: otpSecret } as unknown as NodeJS.ProcessEnv;
      messaging = messagingConfigFromEnv(messagingEnv, { dataDir });
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }
  return {
    port: readInt(env, 'PORT', 3000, 0, 65535),
    host,
    databaseUrl,
    dataDir,
    uploadDir: env.UPLOAD_DIR || join(dataDir, 'uploads'),
    h5Dir: env.H5_DIR || 'dist/h5',
    outboxDir: env.MAIL_OUTBOX_DIR || join(dataDir, 'outbox'),
    publicBaseUrl: readUrl(env, 'PUBLIC_BASE_URL', ['http', 'https']).replace(/\/$/, ''),
    otpSecret,
    stripeSecretKey,
    stripePublishableKey,
    paypal,
    braintree,
    seventeenTrackKey: env.SEVENTEEN_TRACK_KEY || '',
    smtpUrl,
    mailFrom,
    googleClientId,
    maxUploadBytes: readInt(env, 'MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    authRateLimit: { max: authMax, windowMs: readInt(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 15 * 60_000, 1000, DAY_MS) },
    checkAccountRateLimitMax: readInt(env, 'CHECK_ACCOUNT_RATE_LIMIT_MAX', 30, 1, 100000),
    loginAccountFailureMax: readInt(env, 'LOGIN_ACCOUNT_FAILURE_MAX', authMax * 5, 1, 1000000),
    tokenIdleTtlMs: readInt(env, 'TOKEN_IDLE_DAYS', 30, 1, 3650) * DAY_MS,
    tokenMaxAgeMs: readInt(env, 'TOKEN_MAX_AGE_DAYS', 180, 1, 3650) * DAY_MS,
    privateUploadSecret: persistedSecret(dataDir, 'private-upload-secret'),
    privateUploadUrlTtlMs: readInt(env, 'PRIVATE_UPLOAD_URL_TTL_SECONDS', 3600, 10, 7 * 24 * 3600) * 1000,
    csp: {
      scriptSrc: readCspSources(env, 'CSP_SCRIPT_SRC'),
      frameSrc: readCspSources(env, 'CSP_FRAME_SRC'),
      connectSrc: readCspSources(env, 'CSP_CONNECT_SRC'),
    },
    seedOnFirstRun: readBool(env, 'SEED_ON_FIRST_RUN', true),
    trustProxy: readTrustProxy(env),
    redisUrl,
    rateLimitRedisPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'lensmate:limit:',
    logLevel,
    messaging,
  };
}
