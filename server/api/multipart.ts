import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { ApiError } from '../http';
import type { UploadedPart } from '../services/media';

/** Refuses a request that is not multipart before anyone is identified, with the route's own message. */
export function requireMultipart(message: string): preValidationHookHandler {
  return async (request) => {
    if (!request.isMultipart()) throw new ApiError(400, message);
  };
}

/** The file (field `file`, any other file field refused) and the text fields of a multipart request. */
export async function readParts(
  request: FastifyRequest,
): Promise<{ file?: UploadedPart; fields: Map<string, string> }> {
  let file: UploadedPart | undefined;
  const fields = new Map<string, string>();
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw new ApiError(400, `${part.fieldname}: unexpected file field, use file`);
      file = { name: part.filename, buffer: await part.toBuffer() };
    } else {
      fields.set(part.fieldname, String(part.value));
    }
  }
  return { file, fields };
}
