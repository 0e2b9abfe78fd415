import { join } from 'node:path';
import { registerProductionCheck } from '../production-mode';
import { Limits } from './protocol';
import { persistedSecret } from './secrets';

const DAY_MS = 24 * 3600_000;

/**
 * Messaging server configuration. Every value has a working default for a single embedded
 * process; each environment variable that is set but malformed raises an Error naming it.
 */
export interface AppKeyConfig {
  key: string;
  /** enablePublish: the connection gets the write permission. */
  publish: boolean;
  /** enableSubscribe: the connection gets the read permission. */
  subscribe: boolean;
}

export interface AliOssConfig {
  vendor: 'ALI';
  /** The POST host the client uploads to; empty means our own OSS-compatible endpoint. */
  host: string;
  accessKeyId: string;
  accessKeySecret: string;
  dir: string;
}

export interface TencentCosConfig {
  vendor: 'TX';
  host: string;
  secretId: string;
  secretKey: string;
  securityToken: string;
  dir: string;
}

export interface UploadConfig {
  storage: AliOssConfig | TencentCosConfig;
  /** Where the built-in OSS-compatible endpoint keeps files. */
  localDir: string;
  /** The public base URL of this server, used to build the upload host; empty derives it from the request. */
  publicBaseUrl: string;
  policyTtlMs: number;
  maxFileBytes: number;
  /** How long a signed read URL of the built-in endpoint stays valid (history signs a fresh one each time). */
  fileUrlTtlMs: number;
}

export interface WechatConfig {
  appid: string;
  secret: string;
  /** The WeChat API origin; a deployment behind an egress proxy may point it elsewhere. */
  apiBase: string;
  /** The only template ids a client may ask for; empty refuses every template message. */
  templateIds: string[];
}

/** Flood limits: fixed one-second (templates: one-minute) windows, per connection and per user. */
export interface LimitsConfig {
  messagesPerSecondPerConnection: number;
  messagesPerSecondPerUser: number;
  templatesPerMinutePerUser: number;
  /** The serialized payload of any IM message type but text (which keeps the spec's 3 KB). */
  payloadBytes: number;
}

/** What the periodic sweep deletes. */
export interface RetentionConfig {
  pubsubHistoryCount: number;
  pubsubHistoryMs: number;
  outboxMs: number;
  pendingDeliveryMs: number;
  sweepIntervalMs: number;
}

export interface MessagingConfig {
  appKeys: AppKeyConfig[];
  /** Off only as a development switch (MESSAGING_REQUIRE_OTP=0), which NODE_ENV=production refuses (below). */
  requireOtp: boolean;
  otpSecret: string;
  /** A reconnect with its old sid within this window keeps the sid. */
  sessionWindowMs: number;
  redisUrl: string;
  /** Prefix of every Redis key and stream, so deployments (and test runs) sharing a Redis stay apart. */
  redisPrefix: string;
  upload: UploadConfig;
  wechat: WechatConfig;
  /** Unacknowledged IM messages are delivered again after this delay while the receiver stays connected. */
  redeliveryMs: number;
  limits: LimitsConfig;
  retention: RetentionConfig;
}

registerProductionCheck({
  id: 'messaging.require-otp',
  check({ messaging, config }) {
    const settings = messaging ?? config?.messaging;
    if (!settings || settings.requireOtp) return [];
    return [
      {
        name: 'MESSAGING_REQUIRE_OTP=0',
        reason: 'lets anyone connect to messaging as any user id: it is a development switch',
      },
    ];
  },
});

/** Where secrets that are not in the environment are generated and kept (see secrets.ts). */
export interface SecretSource {
  dataDir?: string;
}

/** The built-in OSS-compatible endpoint: POST uploads here, GET serves `<UPLOAD_PATH>/<key>`. */
export const UPLOAD_PATH = '/oss';

const DEFAULT_APP_KEYS: AppKeyConfig[] = [
  { key: 'BC-lensmate-demo', publish: true, subscribe: true },
  { key: 'BS-lensmate-demo', publish: false, subscribe: true },
];

function parseBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false (or 1 or 0), got "${raw}"`);
}

function parsePositiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

function parseAppKeys(raw: string | undefined): AppKeyConfig[] {
  if (raw === undefined || raw === '') return DEFAULT_APP_KEYS.map((k) => ({ ...k }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('MESSAGING_APPKEYS must be JSON: [{"key":"...","publish":true,"subscribe":true}, ...]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new Error('MESSAGING_APPKEYS must be a non-empty JSON array of {key, publish, subscribe}');
  }
  const seen = new Set<string>();
  return parsed.map((entry, index) => {
    const item = entry as Partial<AppKeyConfig> | null;
    if (!item || typeof item !== 'object' || typeof item.key !== 'string' || item.key.trim() === '') {
      throw new Error(`MESSAGING_APPKEYS[${index}].key must be a non-empty string`);
    }
    if (typeof item.publish !== 'boolean' || typeof item.subscribe !== 'boolean') {
      throw new Error(`MESSAGING_APPKEYS[${index}].publish and .subscribe must be booleans`);
    }
    if (seen.has(item.key)) throw new Error(`MESSAGING_APPKEYS has the key "${item.key}" twice`);
    seen.add(item.key);
    return { key: item.key, publish: item.publish, subscribe: item.subscribe };
  });
}

/** A secret from the environment, else generated into the data directory; 16 characters at least. */
function secret(env: NodeJS.ProcessEnv, name: string, fileName: string, source: SecretSource): string {
  const value = env[name] || (source.dataDir ? persistedSecret(source.dataDir, fileName) : '');
  if (value === '') throw new Error(`${name} is required (or a data directory to generate it into)`);
  if (value.length < 16) throw new Error(`${name} must be at least 16 characters`);
  return value;
}

function parseStorage(env: NodeJS.ProcessEnv, source: SecretSource): AliOssConfig | TencentCosConfig {
  const vendor = (env.MESSAGING_UPLOAD_VENDOR || 'ALI').toUpperCase();
  const dir = env.MESSAGING_UPLOAD_DIR ?? 'im/';
  if (vendor === 'ALI') {
    const host = env.MESSAGING_OSS_HOST || '';
    const accessKeyId = env.MESSAGING_OSS_ACCESS_KEY_ID || 'lensmate-local';
    if (host && !/^https?:\/\//.test(host)) throw new Error(`MESSAGING_OSS_HOST must be an http(s) URL, got "${host}"`);
    if (host && !env.MESSAGING_OSS_ACCESS_KEY_SECRET) {
      throw new Error('MESSAGING_OSS_ACCESS_KEY_SECRET is required when MESSAGING_OSS_HOST is set');
    }
    // Our own endpoint signs with a secret generated on first start, never a default anyone could read.
    const accessKeySecret = host
      ? (env.MESSAGING_OSS_ACCESS_KEY_SECRET as string)
      : secret(env, 'MESSAGING_OSS_ACCESS_KEY_SECRET', 'oss-secret', source);
    return { vendor: 'ALI', host, accessKeyId, accessKeySecret, dir };
  }
  if (vendor === 'TX') {
    const host = env.MESSAGING_COS_HOST || '';
    const secretId = env.MESSAGING_COS_SECRET_ID || '';
    const secretKey = env.MESSAGING_COS_SECRET_KEY || '';
    if (!/^https?:\/\//.test(host)) throw new Error(`MESSAGING_COS_HOST must be an http(s) URL, got "${host}"`);
    if (!secretId || !secretKey) {
      throw new Error('MESSAGING_COS_SECRET_ID and MESSAGING_COS_SECRET_KEY are required when the vendor is TX');
    }
    return { vendor: 'TX', host, secretId, secretKey, securityToken: env.MESSAGING_COS_SECURITY_TOKEN || '', dir };
  }
  throw new Error(`MESSAGING_UPLOAD_VENDOR must be ALI or TX, got "${env.MESSAGING_UPLOAD_VENDOR}"`);
}

function parseList(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The configuration from the environment. `source.dataDir` is where secrets missing from the environment
 * are generated (the product server passes DATA_DIR); without it they must be set.
 */
export function messagingConfigFromEnv(env: NodeJS.ProcessEnv, source: SecretSource = {}): MessagingConfig {
  const requireOtp = parseBoolean(env, 'MESSAGING_REQUIRE_OTP', true);
  const otpSecret = requireOtp
    ? secret(env, 'MESSAGING_OTP_SECRET', 'otp-secret', source)
    : env.MESSAGING_OTP_SECRET || '';
  const redisUrl = env.REDIS_URL || '';
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const publicBaseUrl = env.MESSAGING_PUBLIC_URL || '';
  if (publicBaseUrl && !/^https?:\/\//.test(publicBaseUrl)) {
    throw new Error(`MESSAGING_PUBLIC_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  }
  // Without an account of its own, the messaging server notifies through the shop's mini-program (WEAPP_*), whose
  // openids the SDK connects with.
  const ownAccount = Boolean(env.WECHAT_APPID || env.WECHAT_SECRET);
  const wechat = {
    appid: (ownAccount ? env.WECHAT_APPID : env.WEAPP_APPID) || '',
    secret: (ownAccount ? env.WECHAT_SECRET : env.WEAPP_SECRET) || '',
    apiBase: ((ownAccount ? env.WECHAT_API_BASE : env.WEAPP_API_BASE) || 'https://api.weixin.qq.com').replace(
      /\/$/,
      '',
    ),
    templateIds: parseList(env, 'MESSAGING_WXMP_TEMPLATE_IDS'),
  };
  if (!/^https?:\/\//.test(wechat.apiBase)) {
    throw new Error(`WECHAT_API_BASE must be an http(s) URL, got "${wechat.apiBase}"`);
  }
  if (Boolean(wechat.appid) !== Boolean(wechat.secret)) {
    throw new Error('WECHAT_APPID and WECHAT_SECRET must be set together');
  }
  return {
    appKeys: parseAppKeys(env.MESSAGING_APPKEYS),
    requireOtp,
    otpSecret,
    sessionWindowMs: parsePositiveInt(env, 'MESSAGING_SESSION_WINDOW_MS', 60_000),
    redisUrl,
    redisPrefix: env.MESSAGING_REDIS_PREFIX || 'lensmate:msg',
    upload: {
      storage: parseStorage(env, source),
      localDir: env.MESSAGING_UPLOAD_LOCAL_DIR || join(source.dataDir ?? 'data', 'oss'),
      publicBaseUrl: publicBaseUrl.replace(/\/$/, ''),
      policyTtlMs: parsePositiveInt(env, 'MESSAGING_UPLOAD_POLICY_TTL_MS', 10 * 60_000),
      maxFileBytes: parsePositiveInt(env, 'MESSAGING_UPLOAD_MAX_BYTES', Limits.FILE_BYTES),
      fileUrlTtlMs: parsePositiveInt(env, 'MESSAGING_FILE_URL_TTL_MS', 6 * 3600_000),
    },
    wechat,
    redeliveryMs: parsePositiveInt(env, 'MESSAGING_REDELIVERY_MS', 5_000),
    limits: {
      messagesPerSecondPerConnection: parsePositiveInt(env, 'MESSAGING_RATE_PER_CONNECTION', 10),
      messagesPerSecondPerUser: parsePositiveInt(env, 'MESSAGING_RATE_PER_USER', 20),
      templatesPerMinutePerUser: parsePositiveInt(env, 'MESSAGING_WXMP_RATE_PER_MINUTE', 10),
      payloadBytes: parsePositiveInt(env, 'MESSAGING_MAX_PAYLOAD_BYTES', 8192),
    },
    retention: {
      pubsubHistoryCount: parsePositiveInt(env, 'MESSAGING_PUBSUB_HISTORY_MAX', 1000),
      pubsubHistoryMs: parsePositiveInt(env, 'MESSAGING_PUBSUB_HISTORY_MS', 7 * DAY_MS),
      outboxMs: parsePositiveInt(env, 'MESSAGING_OUTBOX_KEEP_MS', 7 * DAY_MS),
      pendingDeliveryMs: parsePositiveInt(env, 'MESSAGING_PENDING_DELIVERY_KEEP_MS', 30 * DAY_MS),
      sweepIntervalMs: parsePositiveInt(env, 'MESSAGING_SWEEP_INTERVAL_MS', 60_000),
    },
  };
}
