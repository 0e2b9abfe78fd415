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
  /** Requests allowed per window on login, register and forget_password, per IP and per account. */
  authRateLimit: { max: number; windowMs: number };
  seedOnFirstRun: boolean;
  /** Behind a reverse proxy: take the client IP (for rate limits) from X-Forwarded-For. */
  trustProxy: boolean;
  logLevel: string;
  messaging: MessagingConfig | null;
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
    authRateLimit: {
      max: readInt(env, 'AUTH_RATE_LIMIT_MAX', 10, 1, 100000),
      windowMs: readInt(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 15 * 60_000, 1000, 24 * 3600_000),
    },
    seedOnFirstRun: readBool(env, 'SEED_ON_FIRST_RUN', true),
    trustProxy: readBool(env, 'TRUST_PROXY', false),
    logLevel,
    messaging,
  };
}
