import { isIP } from 'node:net';
import { join } from 'node:path';
import { type MessagingConfig, messagingConfigFromEnv } from './messaging/config';
import { persistedSecret } from './messaging/secrets';

/**
 * The whole server configuration, read once from the environment at start. Every value has a
 * working default for a single embedded process; a value that is set but malformed stops the start
 * with a message naming the variable.
 */
/** Stripe (card payments on H5). Test keys (sk_test_/pk_test_) are Stripe's test mode: no money moves. */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  /** The signing secret of the webhook endpoint (whsec_…): events are verified with it. */
  webhookSecret: string;
  /** Where the stripe SDK sends its requests: https://api.stripe.com, or a local fake (host, port and protocol). */
  apiBase: string;
  /** Where the payment page loads Stripe.js from: Stripe's, or the local fake's stand-in. */
  jsUrl: string;
}

export interface PaypalConfig {
  clientId: string;
  clientSecret: string;
  env: 'sandbox' | 'live';
  /** https://api-m.sandbox.paypal.com or https://api-m.paypal.com (PAYPAL_ENV), or PAYPAL_API_BASE. */
  apiBase: string;
  /** The webhook's id at PayPal: verify-webhook-signature checks events against it. */
  webhookId: string;
  /** Where the payment page loads the PayPal JS SDK from (the buttons). */
  sdkUrl: string;
}

export interface BraintreeConfig {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  env: 'sandbox' | 'production';
  /** The gateway the braintree SDK speaks to (XML over HTTPS): Braintree's for BRAINTREE_ENV, or a local fake. */
  gatewayUrl: string;
  /** Where the payment page loads Braintree's drop-in from. */
  dropinUrl: string;
}

/** The mini-program's WeChat account (WEAPP_APPID, WEAPP_SECRET): wx.login codes are exchanged with it. */
export interface WeappConfig {
  appid: string;
  secret: string;
  /** https://api.weixin.qq.com (code2Session, access tokens, messages), or a local fake (WEAPP_API_BASE). */
  apiBase: string;
}

/**
 * WeChat Pay API v3 (cross-border, direct merchant: the shop's orders are in USD), paying in the mini-program. The
 * payer is the WeChat user of the mini-program WEAPP_APPID.
 */
export interface WechatPayConfig {
  mchid: string;
  /** The serial number of the merchant API certificate, named in each request's signature. */
  merchantSerial: string;
  /** The merchant API private key (PEM): signs requests and the mini-program's paySign. */
  privateKey: string;
  /** WeChat Pay's public key (PEM) and its id (PUB_KEY_ID_…): answers and notifications are verified with it. */
  platformPublicKey: string;
  platformPublicKeyId: string;
  /** The APIv3 key (32 characters): notifications' resources are AES-256-GCM encrypted with it. */
  apiV3Key: string;
  /** https://apihk.mch.weixin.qq.com, or a local fake (WECHATPAY_API_BASE). */
  apiBase: string;
  /** Where WeChat Pay sends notifications: the shop's POST /api/payment/webhook/wechat. */
  notifyUrl: string;
}

/** The providers' own addresses: anything else is a local fake or a stand-in, which production refuses. */
export const PROVIDER_URLS = {
  stripeApi: 'https://api.stripe.com',
  /** The Stripe.js release that @stripe/stripe-js 10 expects (its RELEASE_TRAIN). */
  stripeJs: 'https://js.stripe.com/endive/stripe.js',
  paypalApi: { sandbox: 'https://api-m.sandbox.paypal.com', live: 'https://api-m.paypal.com' },
  paypalSdk: { sandbox: 'https://www.sandbox.paypal.com/sdk/js', live: 'https://www.paypal.com/sdk/js' },
  braintreeGateway: {
    sandbox: 'https://api.sandbox.braintreegateway.com',
    production: 'https://api.braintreegateway.com',
  },
  /** The CDN build of the braintree-web-drop-in version in package.json. */
  braintreeDropin: 'https://js.braintreegateway.com/web/dropin/1.48.0/js/dropin.min.js',
  /** WeChat's server API: code2Session (sns/jscode2session), access tokens, template and subscribe messages. */
  wechatApi: 'https://api.weixin.qq.com',
  /** WeChat Pay's API for cross-border merchants (Hong Kong access point). */
  wechatPayApi: 'https://apihk.mch.weixin.qq.com',
} as const;

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
  /** NODE_ENV=production: everything server/production-mode.ts's checks find stops the start. */
  production: boolean;
  /**
   * PAYMENT_SANDBOX=1: the payment providers whose keys are not set run against local fakes of their APIs
   * (server/sandbox), started by server/main.ts; the checkout says "Test mode: no money moves". Off by default.
   */
  paymentSandbox: boolean;
  stripe: StripeConfig | null;
  /** The same as stripe's (kept for the routes that read them): empty when Stripe is not configured. */
  stripeSecretKey: string;
  stripePublishableKey: string;
  paypal: PaypalConfig | null;
  braintree: BraintreeConfig | null;
  seventeenTrackKey: string;
  /** 17track's API base (v2.2); a local fake's in tests (server/sandbox/seventeen-track.ts). */
  seventeenTrackUrl: string;
  /**
   * SEVENTEEN_TRACK_WEBHOOK=1: 17track calls /api/track/webhook/17track (signed with the key), so parcels are not
   * polled. Without it the order job polls the shipped orders' parcels every TRACKING_POLL_MINUTES.
   */
  seventeenTrackWebhook: boolean;
  trackingPollMs: number;
  /** An unpaid order is cancelled this long after it was placed, its stock and coupon released (ORDER_PAYMENT_MINUTES). */
  orderPaymentTtlMs: number;
  /** How often the order job runs (expiry, tracking polls); 0: never by itself (ORDER_JOB_SECONDS). */
  orderJobIntervalMs: number;
  smtpUrl: string;
  mailFrom: string;
  googleClientId: string;
  /** The mini-program's WeChat account, for "Sign in with WeChat"; null when WEAPP_APPID is unset. */
  weapp: WeappConfig | null;
  /** WeChat Pay in the mini-program; null unless its variables are set (and WEAPP_APPID with them). */
  wechatPay: WechatPayConfig | null;
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

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name] || fallback;
  if (!choices.includes(raw as T)) throw new ConfigError(`${name} must be ${choices.join(' or ')}, got "${raw}"`);
  return raw as T;
}

/** An http(s) URL without a trailing slash, or the fallback when unset. */
function readBase(env: Env, name: string, fallback: string): string {
  return (readUrl(env, name, ['http', 'https']) || fallback).replace(/\/$/, '');
}

function readStripe(env: Env): StripeConfig | null {
  if (!requireTogether(env, ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'])) return null;
  const secretKey = env.STRIPE_SECRET_KEY as string;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY as string;
  const secretMode = /^(?:sk|rk)_(test|live)_\w+$/.exec(secretKey)?.[1];
  if (!secretMode) throw new ConfigError('STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…');
  const publishableMode = /^pk_(test|live)_\w+$/.exec(publishableKey)?.[1];
  if (!publishableMode) throw new ConfigError('STRIPE_PUBLISHABLE_KEY must look like pk_test_… or pk_live_…');
  if (secretMode !== publishableMode) {
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys');
  }
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || '';
  if (webhookSecret && !/^whsec_\w+$/.test(webhookSecret)) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must look like whsec_…');
  }
  return {
    secretKey,
    publishableKey,
    webhookSecret,
    apiBase: readBase(env, 'STRIPE_API_BASE', PROVIDER_URLS.stripeApi),
    jsUrl: readUrl(env, 'STRIPE_JS_URL', ['http', 'https']) || PROVIDER_URLS.stripeJs,
  };
}

function readPaypal(env: Env): PaypalConfig | null {
  const paypalEnv = readChoice(env, 'PAYPAL_ENV', ['sandbox', 'live'] as const, 'sandbox');
  if (!requireTogether(env, ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'])) return null;
  return {
    clientId: env.PAYPAL_CLIENT_ID as string,
    clientSecret: env.PAYPAL_CLIENT_SECRET as string,
    env: paypalEnv,
    apiBase: readBase(env, 'PAYPAL_API_BASE', PROVIDER_URLS.paypalApi[paypalEnv]),
    webhookId: env.PAYPAL_WEBHOOK_ID || '',
    sdkUrl: readUrl(env, 'PAYPAL_SDK_URL', ['http', 'https']) || PROVIDER_URLS.paypalSdk[paypalEnv],
  };
}

function readBraintree(env: Env): BraintreeConfig | null {
  const braintreeEnv = readChoice(env, 'BRAINTREE_ENV', ['sandbox', 'production'] as const, 'sandbox');
  if (!requireTogether(env, ['BRAINTREE_MERCHANT_ID', 'BRAINTREE_PUBLIC_KEY', 'BRAINTREE_PRIVATE_KEY'])) return null;
  return {
    merchantId: env.BRAINTREE_MERCHANT_ID as string,
    publicKey: env.BRAINTREE_PUBLIC_KEY as string,
    privateKey: env.BRAINTREE_PRIVATE_KEY as string,
    env: braintreeEnv,
    gatewayUrl: readBase(env, 'BRAINTREE_GATEWAY_URL', PROVIDER_URLS.braintreeGateway[braintreeEnv]),
    dropinUrl: readUrl(env, 'BRAINTREE_DROPIN_URL', ['http', 'https']) || PROVIDER_URLS.braintreeDropin,
  };
}

function readWeapp(env: Env): WeappConfig | null {
  if (!requireTogether(env, ['WEAPP_APPID', 'WEAPP_SECRET'])) return null;
  const appid = env.WEAPP_APPID as string;
  if (!/^wx[0-9a-f]{16}$/.test(appid))
    throw new ConfigError(`WEAPP_APPID must look like wx followed by 16 hex digits, got "${appid}"`);
  return {
    appid,
    secret: env.WEAPP_SECRET as string,
    apiBase: readBase(env, 'WEAPP_API_BASE', PROVIDER_URLS.wechatApi),
  };
}

/** A PEM from a variable: real line breaks, or `\\n` escapes as one-line secrets stores keep them. */
const pem = (value: string) => value.replace(/\\n/g, '\n');

function readWechatPay(env: Env, weapp: WeappConfig | null, publicBaseUrl: string): WechatPayConfig | null {
  const names = [
    'WECHATPAY_MCHID',
    'WECHATPAY_MERCHANT_SERIAL',
    'WECHATPAY_PRIVATE_KEY',
    'WECHATPAY_PUBLIC_KEY_ID',
    'WECHATPAY_PUBLIC_KEY',
    'WECHATPAY_APIV3_KEY',
  ];
  if (!requireTogether(env, names)) return null;
  if (!weapp) throw new ConfigError('WeChat Pay pays in the mini-program: set WEAPP_APPID and WEAPP_SECRET with it');
  const apiV3Key = env.WECHATPAY_APIV3_KEY as string;
  if (Buffer.byteLength(apiV3Key) !== 32) throw new ConfigError('WECHATPAY_APIV3_KEY must be 32 characters');
  const privateKey = pem(env.WECHATPAY_PRIVATE_KEY as string);
  const platformPublicKey = pem(env.WECHATPAY_PUBLIC_KEY as string);
  if (!privateKey.includes('PRIVATE KEY-----'))
    throw new ConfigError('WECHATPAY_PRIVATE_KEY must be a PEM private key');
  if (!platformPublicKey.includes('PUBLIC KEY-----'))
    throw new ConfigError('WECHATPAY_PUBLIC_KEY must be a PEM public key');
  const notifyUrl =
    readUrl(env, 'WECHATPAY_NOTIFY_URL', ['http', 'https']) ||
    (publicBaseUrl ? `${publicBaseUrl}/api/payment/webhook/wechat` : '');
  if (!notifyUrl)
    throw new ConfigError('WeChat Pay needs WECHATPAY_NOTIFY_URL (or PUBLIC_BASE_URL) for its notifications');
  return {
    mchid: env.WECHATPAY_MCHID as string,
    merchantSerial: env.WECHATPAY_MERCHANT_SERIAL as string,
    privateKey,
    platformPublicKey,
    platformPublicKeyId: env.WECHATPAY_PUBLIC_KEY_ID as string,
    apiV3Key,
    apiBase: readBase(env, 'WECHATPAY_API_BASE', PROVIDER_URLS.wechatPayApi),
    notifyUrl,
  };
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
  const stripe = readStripe(env);
  const paypal = readPaypal(env);
  const braintree = readBraintree(env);
  const weapp = readWeapp(env);
  const publicBaseUrl = readUrl(env, 'PUBLIC_BASE_URL', ['http', 'https']).replace(/\/$/, '');
  const wechatPay = readWechatPay(env, weapp, publicBaseUrl);
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
    publicBaseUrl,
    otpSecret,
    production: env.NODE_ENV === 'production',
    paymentSandbox: readBool(env, 'PAYMENT_SANDBOX', false),
    stripe,
    stripeSecretKey: stripe?.secretKey ?? '',
    stripePublishableKey: stripe?.publishableKey ?? '',
    paypal,
    braintree,
    seventeenTrackKey: env.SEVENTEEN_TRACK_KEY || '',
    seventeenTrackUrl: (env.SEVENTEEN_TRACK_URL || 'https://api.17track.net/track/v2.2').replace(/\/$/, ''),
    seventeenTrackWebhook: readBool(env, 'SEVENTEEN_TRACK_WEBHOOK', false),
    trackingPollMs: readInt(env, 'TRACKING_POLL_MINUTES', 60, 1, 7 * 24 * 60) * 60_000,
    orderPaymentTtlMs: readInt(env, 'ORDER_PAYMENT_MINUTES', 30, 1, 30 * 24 * 60) * 60_000,
    orderJobIntervalMs: readInt(env, 'ORDER_JOB_SECONDS', 60, 0, 24 * 3600) * 1000,
    smtpUrl,
    mailFrom,
    googleClientId,
    weapp,
    wechatPay,
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
