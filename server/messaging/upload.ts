import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AliOssConfig, TencentCosConfig } from './config';
import { UPLOAD_PATH } from './config';
import { type MessagingContext, type MessagingSocket, handle } from './context';
import { badRequest } from './protocol';

/**
 * uploadToken signs a POST policy the way Ali OSS (vendor ALI) or Tencent COS (vendor TX) expect it.
 * By default the ALI host is this server's own OSS-compatible endpoint, which checks expiry, key prefix,
 * size and the HMAC-SHA1 signature as OSS does and keeps the file on disk: the client's upload code
 * path is the production one.
 */
const trimSlashes = (dir: string) => dir.replace(/^\/+|\/+$/g, '');

function newFilename(filename: string): string {
  const ext = extname(filename)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '');
  return `${Date.now()}${randomBytes(6).toString('hex')}${ext}`;
}

function datedDir(base: string): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return [trimSlashes(base), day].filter(Boolean).join('/');
}

export function signAliPolicy(storage: AliOssConfig, host: string, filename: string, ttlMs: number, maxBytes: number) {
  const dir = datedDir(storage.dir);
  const policy = Buffer.from(
    JSON.stringify({
      expiration: new Date(Date.now() + ttlMs).toISOString(),
      conditions: [
        ['content-length-range', 0, maxBytes],
        ['starts-with', '$key', `${dir}/`],
      ],
    }),
  ).toString('base64');
  const signature = createHmac('sha1', storage.accessKeySecret).update(policy).digest('base64');
  return {
    vendor: 'ALI',
    host,
    dir,
    accessKeyId: storage.accessKeyId,
    policy,
    signature,
    newFilename: newFilename(filename),
  };
}

export function signCosPolicy(storage: TencentCosConfig, filename: string, ttlMs: number, maxBytes: number) {
  const now = Math.floor(Date.now() / 1000);
  const keyTime = `${now};${now + Math.ceil(ttlMs / 1000)}`;
  const key = `${datedDir(storage.dir)}/${newFilename(filename)}`;
  const conditions: unknown[] = [
    { 'q-sign-algorithm': 'sha1' },
    { 'q-ak': storage.secretId },
    { 'q-sign-time': keyTime },
    { key },
    ['content-length-range', 0, maxBytes],
  ];
  if (storage.securityToken) conditions.push({ 'x-cos-security-token': storage.securityToken });
  const policyText = JSON.stringify({
    expiration: new Date((now + Math.ceil(ttlMs / 1000)) * 1000).toISOString(),
    conditions,
  });
  const signKey = createHmac('sha1', storage.secretKey).update(keyTime).digest('hex');
  const stringToSign = createHash('sha1').update(policyText).digest('hex');
  return {
    vendor: 'TX',
    host: storage.host,
    key,
    qSignAlgorithm: 'sha1',
    qAk: storage.secretId,
    qKeyTime: keyTime,
    qSignature: createHmac('sha1', signKey).update(stringToSign).digest('hex'),
    policy: Buffer.from(policyText).toString('base64'),
    xCosSecurityToken: storage.securityToken,
  };
}

function requestBase(socket: MessagingSocket): string {
  const headers = socket.handshake.headers;
  const proto =
    (headers['x-forwarded-proto'] as string | undefined)?.split(',')[0] || (socket.handshake.secure ? 'https' : 'http');
  return `${proto}://${headers['x-forwarded-host'] ?? headers.host}`;
}

export function registerUploadToken(ctx: MessagingContext, socket: MessagingSocket): void {
  handle(ctx, socket, 'uploadToken', 'write', async (_socket, payload) => {
    const filename = payload.filename;
    if (typeof filename !== 'string' || filename.trim() === '') throw badRequest('filename is required.');
    const { storage, policyTtlMs, maxFileBytes, publicBaseUrl } = ctx.config.upload;
    if (storage.vendor === 'TX') return signCosPolicy(storage, filename, policyTtlMs, maxFileBytes);
    const host = storage.host || `${publicBaseUrl || requestBase(socket)}${UPLOAD_PATH}`;
    return signAliPolicy(storage, host, filename, policyTtlMs, maxFileBytes);
  });
}

function ossError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .type('application/xml')
    .send(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

interface PolicyCheck {
  maxBytes: number;
  minBytes: number;
}

/** Checks the fields OSS checks before it accepts the body; returns the size range to enforce on the file. */
function checkPolicy(fields: Record<string, string>, storage: AliOssConfig): PolicyCheck | string {
  const { policy, signature, OSSAccessKeyId: accessKeyId, key } = fields;
  if (!policy || !signature || !accessKeyId || !key) return 'Missing key, policy, signature or OSSAccessKeyId.';
  if (accessKeyId !== storage.accessKeyId) return 'The OSS Access Key Id you provided does not exist in our records.';
  const expected = createHmac('sha1', storage.accessKeySecret).update(policy).digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'The request signature we calculated does not match the signature you provided.';
  }
  let document: { expiration?: string; conditions?: unknown[] };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'));
  } catch {
    return 'Invalid Policy: Invalid JSON.';
  }
  if (!document.expiration || Date.parse(document.expiration) <= Date.now()) {
    return 'Invalid according to Policy: Policy expired.';
  }
  const range: PolicyCheck = { minBytes: 0, maxBytes: Number.MAX_SAFE_INTEGER };
  for (const condition of document.conditions ?? []) {
    if (!Array.isArray(condition)) continue;
    const [operator, field, value] = condition as [string, unknown, unknown];
    if (operator === 'starts-with' && field === '$key' && !key.startsWith(String(value))) {
      return 'Invalid according to Policy: Policy Condition failed: ["starts-with", "$key", "' + String(value) + '"]';
    }
    if (operator === 'content-length-range') {
      range.minBytes = Number(field);
      range.maxBytes = Number(value);
    }
  }
  if (key.split('/').some((part) => part === '..' || part === '') || key.startsWith('/')) return 'Invalid object key.';
  return range;
}

export async function registerUploadRoutes(app: FastifyInstance, ctx: MessagingContext): Promise<void> {
  const { storage, localDir, maxFileBytes } = ctx.config.upload;
  if (storage.vendor !== 'ALI' || storage.host) return;
  const root = resolve(localDir);
  // Encapsulated, so the multipart parser and its decorators stay out of the product server's scope.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxFileBytes, files: 1, fields: 20 } });

    scope.post(UPLOAD_PATH, async (request, reply) => {
      if (!request.isMultipart()) return ossError(reply, 400, 'InvalidArgument', 'Expect multipart/form-data.');
      const fields: Record<string, string> = {};
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        const check = checkPolicy(fields, storage);
        if (typeof check === 'string') {
          part.file.resume();
          return ossError(reply, 403, 'AccessDenied', check);
        }
        const target = join(root, ...fields.key.split('/'));
        if (!target.startsWith(root + sep)) return ossError(reply, 400, 'InvalidObjectName', 'Invalid object key.');
        await mkdir(dirname(target), { recursive: true });
        const temporary = `${target}.${randomBytes(4).toString('hex')}.part`;
        await pipeline(part.file, createWriteStream(temporary));
        const size = (await stat(temporary)).size;
        if (part.file.truncated || size > check.maxBytes || size < check.minBytes) {
          await unlink(temporary);
          return ossError(reply, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
        }
        await rename(temporary, target);
        const status = Number(fields.success_action_status);
        return reply
          .code([200, 201, 204].includes(status) ? status : 204)
          .send(status === 204 || !status ? undefined : '');
      }
      return ossError(reply, 400, 'InvalidArgument', 'No file in the request.');
    });

    scope.get(`${UPLOAD_PATH}/*`, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const target = resolve(root, ...key.split('/'));
      if (!target.startsWith(root + sep)) return ossError(reply, 404, 'NoSuchKey', 'The specified key does not exist.');
      try {
        const info = await stat(target);
        if (!info.isFile()) throw new Error('not a file');
      } catch {
        return ossError(reply, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      return reply.type(contentType(target)).send(createReadStream(target));
    });
  });
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
};

function contentType(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}
