import { mkdir } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from './context';
import { fail } from './http';
import { USER_FILE_POLICY } from './security-headers';
import {
  UNKNOWN_CONTENT_TYPE,
  UPLOADS_PREFIX,
  isPrivatePath,
  readHead,
  servedContentType,
  verifyUploadSignature,
} from './services/uploads';

/** The path of a request for a user file, decoded and with `.` and `..` resolved as the file server will. */
function uploadPath(request: FastifyRequest): string | null {
  try {
    return posix.normalize(decodeURIComponent(request.url.split('?')[0]));
  } catch {
    return null;
  }
}

/** Sniffed content types by path: uploads are written once under new names, so a path's type never changes. */
const sniffedTypes = new Map<string, string>();

async function sniffedType(root: string, relativePath: string): Promise<string> {
  const path = join(root, relativePath);
  const known = sniffedTypes.get(path);
  if (known) return known;
  const head = await readHead(path);
  const type = head ? servedContentType(relativePath, head) : UNKNOWN_CONTENT_TYPE;
  if (sniffedTypes.size >= 10_000) sniffedTypes.clear();
  sniffedTypes.set(path, type);
  return type;
}

/**
 * User files under /uploads: each goes out with the type its bytes are (an unrecognised file as a download, never as
 * a page), nosniff and the sandboxing policy. Prescription photos need a valid signature and are cached privately.
 */
export async function serveUploads(files: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = resolve(ctx.config.uploadDir);
  await mkdir(root, { recursive: true });
  const expiresOf = new WeakMap<FastifyRequest, number>();
  files.addHook('onRequest', async (request, reply) => {
    const path = uploadPath(request);
    if (path === null) return fail(reply, 400, 'Bad file path');
    if (!isPrivatePath(path)) return;
    const expires = verifyUploadSignature(path, request.query as object, ctx.config.privateUploadSecret, ctx.now());
    if (expires === null) return fail(reply, 403, 'This link has expired or is not valid: open the photo from the app');
    expiresOf.set(request, expires);
  });
  files.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', USER_FILE_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    const path = uploadPath(request);
    if (path && (reply.statusCode === 200 || reply.statusCode === 206)) {
      const type = await sniffedType(root, path.slice(UPLOADS_PREFIX.length + 1));
      reply.header('content-type', type);
      if (type === UNKNOWN_CONTENT_TYPE) reply.header('content-disposition', 'attachment');
    }
    const expires = expiresOf.get(request);
    if (expires !== undefined) {
      reply.header('cache-control', `private, max-age=${Math.max(0, Math.floor((expires - ctx.now()) / 1000))}`);
    }
    return payload;
  });
  await files.register(fastifyStatic, {
    root,
    prefix: `${UPLOADS_PREFIX}/`,
    decorateReply: false,
    index: false,
    maxAge: '7d',
    immutable: true,
  });
}
