import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { USER_FILE_POLICY } from '../security-headers';
import type { AliOssConfig, TencentCosConfig } from './config';
import { UPLOAD_PATH } from './config';
import { type MessagingContext, type MessagingSocket, handle, identity } from './context';
import { ACTIVE_EXTENSIONS, isActiveContent, matchesExtension, servedType } from './files';
import { type ImageOperation, ImageProcessError, parseImageProcess, processImage } from './image-process';
import { Call, Limits, Text, badRequest } from './protocol';

/**
 * uploadToken signs a POST policy the way Ali OSS (vendor ALI) or Tencent COS (vendor TX) expect it, for
 * one exact key under the user's own prefix (`<dir>/u-<user id>/<day>/<random>.<ext>`), so nobody writes
 * anywhere else. By default the ALI host is this server's own OSS-compatible endpoint, which checks expiry,
 * key, size and the HMAC-SHA1 signature as OSS does, refuses markup and media whose bytes are not what
 * their name says, never replaces a stored object, and serves files only through signed, expiring paths
 * (files.ts): the client's upload code path is the production one.
 */
const trimSlashes = (dir: string) => dir.replace(/^\/+|\/+$/g, '');

const VIDEO_EXTENSIONS = new Set(['avi', 'mov', 'rmvb', 'rm', 'flv', 'mp4', '3gp', 'quicktime']);

/** The extension of a requested file name, checked: letters and digits only, and never markup or script. */
function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  const extension = dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
  if (extension !== '' && !/^[a-z0-9]{1,10}$/.test(extension)) throw badRequest(Text.FILE_TYPE);
  if (ACTIVE_EXTENSIONS.has(extension)) throw badRequest(Text.FILE_TYPE);
  return extension;
}

function newFilename(extension: string): string {
  return `${Date.now()}${randomBytes(12).toString('hex')}${extension ? `.${extension}` : ''}`;
}

function datedDir(base: string, owner: string): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return [trimSlashes(base), owner, day].filter(Boolean).join('/');
}

/** The most a file of this extension may weigh: the spec's video limit, else the configured maximum. */
function sizeLimit(extension: string, maxFileBytes: number): number {
  return VIDEO_EXTENSIONS.has(extension) ? Math.min(Limits.VIDEO_BYTES, maxFileBytes) : maxFileBytes;
}

/**
 * A POST policy for exactly one new key under `owner`. `hostFor` answers the host the client posts to and
 * builds the file's URL from (for our own endpoint it carries the uploader's read grant for that key).
 */
export function signAliPolicy(
  storage: AliOssConfig,
  hostFor: (key: string) => string,
  owner: string,
  extension: string,
  ttlMs: number,
  maxBytes: number,
) {
  const dir = datedDir(storage.dir, owner);
  const filename = newFilename(extension);
  const key = `${dir}/${filename}`;
  const policy = Buffer.from(
    JSON.stringify({
      expiration: new Date(Date.now() + ttlMs).toISOString(),
      conditions: [
        ['content-length-range', 1, maxBytes],
        ['eq', '$key', key],
      ],
    }),
  ).toString('base64');
  const signature = createHmac('sha1', storage.accessKeySecret).update(policy).digest('base64');
  return {
    vendor: 'ALI',
    host: hostFor(key),
    dir,
    accessKeyId: storage.accessKeyId,
    policy,
    signature,
    newFilename: filename,
  };
}

export function signCosPolicy(
  storage: TencentCosConfig,
  owner: string,
  extension: string,
  ttlMs: number,
  maxBytes: number,
) {
  const now = Math.floor(Date.now() / 1000);
  const keyTime = `${now};${now + Math.ceil(ttlMs / 1000)}`;
  const key = `${datedDir(storage.dir, owner)}/${newFilename(extension)}`;
  const conditions: unknown[] = [
    { 'q-sign-algorithm': 'sha1' },
    { 'q-ak': storage.secretId },
    { 'q-sign-time': keyTime },
    { key },
    ['content-length-range', 1, maxBytes],
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

export function registerUploadToken(ctx: MessagingContext): void {
  handle(ctx, Call.UPLOAD_TOKEN, 'write', async (socket, payload) => {
    const filename = payload.filename;
    if (typeof filename !== 'string' || filename.trim() === '') throw badRequest('filename is required.');
    if (filename.length > 255) throw badRequest('filename over max length 255');
    const extension = extensionOf(filename);
    const owner = `u-${identity(socket).userId}`;
    const { storage, policyTtlMs, maxFileBytes, publicBaseUrl } = ctx.config.upload;
    const maxBytes = sizeLimit(extension, maxFileBytes);
    if (storage.vendor === 'TX') return signCosPolicy(storage, owner, extension, policyTtlMs, maxBytes);
    const files = ctx.files;
    const hostFor = (key: string) =>
      storage.host || `${publicBaseUrl || requestBase(socket)}${UPLOAD_PATH}${files ? `/${files.grant(key)}` : ''}`;
    return signAliPolicy(storage, hostFor, owner, extension, policyTtlMs, maxBytes);
  });
}

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] as string,
  );

/** OSS's XML error page; every part of it is escaped, so nothing a request sent can become markup. */
function ossError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .type('application/xml; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message></Error>`,
    );
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
  let keyBound = false;
  for (const condition of document.conditions ?? []) {
    if (!Array.isArray(condition)) continue;
    const [operator, field, value] = condition as [string, unknown, unknown];
    if (operator === 'eq' && field === '$key') {
      if (key !== String(value)) return 'Invalid according to Policy: Policy Condition failed: ["eq", "$key"]';
      keyBound = true;
    }
    if (operator === 'starts-with' && field === '$key' && !key.startsWith(String(value))) {
      return 'Invalid according to Policy: Policy Condition failed: ["starts-with", "$key"]';
    }
    if (operator === 'content-length-range') {
      range.minBytes = Number(field);
      range.maxBytes = Number(value);
    }
  }
  // Our own policies always name their key; one that does not was not signed by this server's uploadToken.
  if (!keyBound) return 'Invalid according to Policy: the key is not bound.';
  if (key.split('/').some((part) => part === '..' || part === '.' || part === '') || key.startsWith('/')) {
    return 'Invalid object key.';
  }
  return range;
}

async function readHead(path: string, bytes = 4096): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Why the stored bytes are refused, or null: markup never, and media only when it is what its name says. */
async function contentRefusal(path: string, key: string): Promise<string | null> {
  const head = await readHead(path);
  if (isActiveContent(head)) return 'Markup (HTML, SVG, XML) is not accepted.';
  const dot = key.lastIndexOf('.');
  const extension = dot > key.lastIndexOf('/') ? key.slice(dot + 1).toLowerCase() : '';
  if (!matchesExtension(extension, head)) return `The content is not a .${extension} file.`;
  return null;
}

export async function registerUploadRoutes(app: FastifyInstance, ctx: MessagingContext): Promise<void> {
  const { storage, localDir, maxFileBytes } = ctx.config.upload;
  const files = ctx.files;
  if (storage.vendor !== 'ALI' || storage.host || !files) return;
  const root = resolve(localDir);
  // Encapsulated, so the multipart parser and its decorators stay out of the product server's scope.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxFileBytes, files: 1, fields: 20, fieldSize: 8192 } });

    // The host of a token carries the uploader's read grant, so the form is posted under it too.
    const upload = async (request: FastifyRequest, reply: FastifyReply) => {
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
        if (!target.startsWith(root + sep)) {
          part.file.resume();
          return ossError(reply, 400, 'InvalidObjectName', 'Invalid object key.');
        }
        await mkdir(dirname(target), { recursive: true });
        const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
        try {
          await pipeline(part.file, createWriteStream(temporary, { flags: 'wx' }));
          const size = (await stat(temporary)).size;
          if (part.file.truncated || size > check.maxBytes) {
            return ossError(reply, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
          }
          if (size < check.minBytes) {
            return ossError(
              reply,
              400,
              'EntityTooSmall',
              'Your proposed upload is smaller than the minimum allowed size.',
            );
          }
          const refusal = await contentRefusal(temporary, fields.key);
          if (refusal) return ossError(reply, 400, 'InvalidArgument', refusal);
          // A hard link fails when the name exists: a stored object is never replaced.
          await link(temporary, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
            return ossError(reply, 409, 'FileAlreadyExists', 'The object you specified already exists.');
          }
          throw error;
        } finally {
          await unlink(temporary).catch(() => undefined);
        }
        const status = Number(fields.success_action_status);
        return reply
          .code([200, 201, 204].includes(status) ? status : 204)
          .send(status === 204 || !status ? undefined : '');
      }
      return ossError(reply, 400, 'InvalidArgument', 'No file in the request.');
    };
    scope.post(UPLOAD_PATH, upload);
    scope.post(`${UPLOAD_PATH}/*`, upload);

    scope.get(`${UPLOAD_PATH}/*`, async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const granted = files.verify(path);
      if (!granted) return ossError(reply, 403, 'AccessDenied', 'This file needs a valid, unexpired signed URL.');
      const target = resolve(root, ...granted.key.split('/'));
      if (!target.startsWith(root + sep)) return ossError(reply, 404, 'NoSuchKey', 'The specified key does not exist.');
      try {
        const info = await stat(target);
        if (!info.isFile()) throw new Error('not a file');
      } catch {
        return ossError(reply, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      const { type, download } = servedType(await readHead(target));
      // A thumbnail as OSS (`x-oss-process=image/resize,...`) or COS (`imageMogr2/thumbnail/...`) would make it.
      const rawQuery = request.raw.url?.includes('?') ? (request.raw.url.split('?')[1] ?? '') : '';
      let operation: ImageOperation | null = null;
      try {
        operation = parseImageProcess(rawQuery);
      } catch (error) {
        if (error instanceof ImageProcessError) return ossError(reply, 400, 'InvalidArgument', error.message);
        throw error;
      }
      if (operation && (download || !type.startsWith('image/'))) {
        return ossError(reply, 400, 'InvalidArgument', 'Image processing applies to images only.');
      }
      const maxAge = Math.max(0, Math.floor((granted.expiresAt - Date.now()) / 1000));
      reply
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', USER_FILE_POLICY)
        .header('cache-control', `private, max-age=${maxAge}`);
      if (operation) {
        try {
          const processed = await processImage(await readFile(target), operation);
          return reply.type(processed.type).send(processed.body);
        } catch (error) {
          if (error instanceof ImageProcessError) return ossError(reply, 400, 'InvalidArgument', error.message);
          return ossError(reply, 400, 'InvalidArgument', 'The image cannot be processed.');
        }
      }
      reply.type(type);
      if (download) reply.header('content-disposition', 'attachment');
      return reply.send(createReadStream(target));
    });
  });
}
