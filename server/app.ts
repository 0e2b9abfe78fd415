import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import type { Kysely } from 'kysely';
import { registerAccountRoutes } from './api/account';
import { registerArticleRoutes } from './api/article';
import { registerCatalogRoutes } from './api/catalog';
import { registerConfigRoutes } from './api/config';
import { registerHomeRoutes } from './api/home';
import { registerMessagingRoutes } from './api/messaging';
import { registerOpenApi } from './api/openapi';
import { registerOrderRoutes } from './api/order';
import { registerPaymentRoutes } from './api/payment';
import { registerReviewRoutes } from './api/review';
import { zodSerializerCompiler, zodValidatorCompiler } from './api/route';
import { registerSocialRoutes } from './api/social';
import { registerTrackRoutes } from './api/track';
import { registerTryOnRoutes } from './api/tryon';
import { recordTokenUse, tokenUseDue } from './auth';
import { monotonicClock } from './clock';
import type { ServerConfig, TrustProxy } from './config';
import type { AppContext } from './context';
import { DB_UNAVAILABLE, type Dialect, isDbUnavailable } from './db/connection';
import { messagingDb } from './db/messaging-schema';
import type { Database } from './db/schema';
import { ApiError, fail } from './http';
import { MessagingControl } from './messaging/control';
import { registerHomePrerender } from './prerender/home';
import { registerSecurityHeaders } from './security-headers';
import { type FaceDetector, createFaceDetector } from './services/face-detector';
import { type Mailer, outboxMailer, smtpMailer } from './services/mail';
import { type OrderJobs, orderJobs } from './services/order-jobs';
import { type PaymentProviders, createPaymentProviders } from './services/payments';
import {
  type LimitCounters,
  memoryCounters,
  redisCounters,
  routeLimitStore,
  tooManyMessage,
} from './services/rate-limit';
import { type Tracker, offlineTracker, seventeenTracker } from './services/tracking';
import { UPLOADS_PREFIX } from './services/uploads';
import { serveUploads } from './upload-files';

declare module 'fastify' {
  interface FastifyInstance {
    /** The order job (expiry of unpaid orders, tracking polls): runs by itself every ORDER_JOB_SECONDS once ready. */
    orderJobs: OrderJobs;
  }
}

export interface AppDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer?: Mailer;
  payments?: PaymentProviders;
  tracker?: Tracker;
  faces?: FaceDetector;
  now?: () => number;
  logger?: boolean;
  /** Pass the one given to registerMessaging, so revocations close open messaging sessions. */
  messaging?: MessagingControl;
}

/** TRUST_PROXY as fastify takes it: its types list no hop count, so a count becomes proxy-addr's test for one. */
function trustedProxies(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Rate-limit counters of this process, or with REDIS_URL shared in Redis by every process of the shop. */
function createLimitCounters(app: FastifyInstance, config: ServerConfig, now: () => number): LimitCounters {
  if (!config.redisUrl) return memoryCounters(now);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return redisCounters(redis, config.rateLimitRedisPrefix);
}

/** The product API (and, when the H5 build exists, the site) on one fastify instance; not listening yet. */
export async function buildApp(config: ServerConfig, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ? { level: config.logLevel } : false,
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: trustedProxies(config.trustProxy),
  });
  const now = deps.now ?? monotonicClock();
  const limits = createLimitCounters(app, config, now);
  const ctx: AppContext = {
    db: deps.db,
    dialect: deps.dialect,
    config,
    mailer:
      deps.mailer ??
      (config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(config.outboxDir, now)),
    payments: deps.payments ?? createPaymentProviders(config, deps.db, now),
    tracker:
      deps.tracker ??
      (config.seventeenTrackKey
        ? seventeenTracker(config.seventeenTrackKey, config.seventeenTrackUrl)
        : offlineTracker(now)),
    faces: deps.faces ?? createFaceDetector(),
    limits,
    messaging: deps.messaging ?? new MessagingControl(messagingDb(deps.db)),
    now,
  };
  // The face detector's worker thread ends with the app, so a closed app leaves nothing running.
  app.addHook('onClose', () => ctx.faces.close());
  const jobs = orderJobs(ctx);
  app.decorate('orderJobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  // A callback hook: most requests (anonymous ones, and sessions whose last use moved under a minute ago) have no
  // token use to record, and go on at once instead of through a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!tokenUseDue(request)) return done(null, payload);
    recordTokenUse(ctx, request, reply.statusCode).then(() => done(null, payload), done);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return fail(reply, error.status, error.message);
    const code = (error as FastifyError).code;
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return fail(reply, 400, 'body: must be JSON or multipart/form-data');
    if (
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return fail(reply, 400, 'body: must be valid JSON');
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(reply, 400, 'body: too large');
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      return fail(reply, 400, `file: larger than ${Math.round(config.maxUploadBytes / 1024 / 1024)} MB`);
    }
    if ((error as FastifyError).statusCode === 429) return fail(reply, 429, error.message);
    if (isDbUnavailable(error)) {
      request.log.warn(error);
      return fail(reply, 503, DB_UNAVAILABLE);
    }
    request.log.error(error);
    return fail(reply, 500, 'Internal server error');
  });

  await registerSecurityHeaders(app, config);
  await app.register((files) => serveUploads(files, ctx));

  // Encapsulated: the multipart parser and the rate limiter stay in the API's scope, so the messaging
  // server can register its own multipart upload route on the same instance.
  await app.register(async (api) => {
    // Every route validates its request and serializes its answer by the schemas of its contract entry.
    api.setValidatorCompiler(zodValidatorCompiler);
    api.setSerializerCompiler(zodSerializerCompiler);
    api.decorateRequest('user', null);
    await registerOpenApi(api);
    await api.register(rateLimit, {
      global: false,
      store: routeLimitStore(limits),
      max: config.authRateLimit.max,
      timeWindow: config.authRateLimit.windowMs,
      errorResponseBuilder: (_request, context) => {
        const error = new Error(tooManyMessage(context.ttl)) as Error & { statusCode: number };
        error.statusCode = 429;
        return error;
      },
    });
    await api.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10 } });
    const perIp = (max: number) => ({ config: { rateLimit: { max, timeWindow: config.authRateLimit.windowMs } } });
    registerAccountRoutes(api, ctx, {
      limited: perIp(config.authRateLimit.max),
      checkLimited: perIp(config.checkAccountRateLimitMax),
    });
    registerArticleRoutes(api, ctx);
    registerCatalogRoutes(api, ctx);
    registerConfigRoutes(api, ctx);
    registerHomeRoutes(api, ctx);
    registerOrderRoutes(api, ctx);
    registerPaymentRoutes(api, ctx);
    registerTrackRoutes(api, ctx);
    registerTryOnRoutes(api, ctx);
    registerMessagingRoutes(api, ctx);
    registerSocialRoutes(api, ctx);
    registerReviewRoutes(api, ctx);
  });

  const h5Root = resolve(config.h5Dir);
  const hasSite = existsSync(resolve(h5Root, 'index.html'));
  if (hasSite) {
    await app.register(fastifyStatic, {
      root: h5Root,
      prefix: '/',
      wildcard: false,
      // `/` is home's prerendered first screen (server/prerender/home.ts), not the bare index.html.
      index: false,
      // The .br/.gz copies written by scripts/precompress.mjs go out as they are to browsers that accept them.
      preCompressed: true,
      cacheControl: false,
      // Scripts and styles carry a content hash in their name: cached for a year. index.html is always revalidated.
      setHeaders: (res, path) => {
        const hashed = /[.-][0-9a-f]{8,}\.(js|css)(\.br|\.gz)?$/.test(path);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    registerHomePrerender(app, h5Root);
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = ['/api/', `${UPLOADS_PREFIX}/`, '/oss/', '/socket.io/'].some((prefix) => path.startsWith(prefix));
    // The H5 router runs in browser mode: every other GET path is a route of the single page app.
    if (hasSite && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').sendFile('index.html', h5Root);
    }
    return fail(reply, 404, `Not found: ${request.method} ${path}`);
  });
  return app;
}
