/**
 * The OpenAPI 3.1 document of the product API, generated from the routes' schemas (the contract map) by
 * @fastify/swagger, served at `/api/openapi.json`, with Swagger UI at `/api/docs` served from the server itself
 * (no CDN: its page loads only same-origin scripts, so it runs under the site's Content-Security-Policy).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { TOKEN_HEADER } from '../../types/constants';
import { TOKEN_SCHEME } from './route';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';
/** The contract's version in the document: the app version it was released with. */
export const API_VERSION = '1.0.5';

function isZod(value: unknown): value is ZodTypeAny {
  return typeof value === 'object' && value !== null && 'safeParse' in value;
}

/** A zod schema as JSON Schema (2020-12 compatible, as OpenAPI 3.1 takes it), inlined. */
export function toJsonSchema(schema: ZodTypeAny): Record<string, unknown> {
  const { $schema: _drop, ...json } = zodToJsonSchema(schema, {
    target: 'jsonSchema7',
    $refStrategy: 'none',
  }) as Record<string, unknown>;
  return json;
}

/** A route's schema as @fastify/swagger reads it: every zod schema as JSON Schema; a multipart form as its body. */
function transform({ schema, url }: { schema: Record<string, unknown> | undefined; url: string }) {
  if (schema?.hide) return { schema: { hide: true }, url };
  if (!schema) return { schema: {}, url };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'multipartForm') continue;
    if (key === 'response' && value && typeof value === 'object') {
      out.response = Object.fromEntries(
        Object.entries(value).map(([status, body]) => [status, isZod(body) ? toJsonSchema(body) : body]),
      );
    } else out[key] = isZod(value) ? toJsonSchema(value) : value;
  }
  if (isZod(schema.multipartForm)) {
    const form = toJsonSchema(schema.multipartForm);
    out.body = { ...form, properties: { ...(form.properties as object), file: { type: 'string', format: 'binary' } } };
  }
  return { schema: out, url };
}

/** Registers the generator before the API's routes (it collects them as they are added) and serves the results. */
export async function registerOpenApi(api: FastifyInstance): Promise<void> {
  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lensmate product API',
        version: API_VERSION,
        description:
          'Every answer is `{status, msg, data}`: status 200 carries the data; any other status (also the HTTP ' +
          'status) carries a message, for 400 naming the field (`email: Invalid email`), and `data: null`.',
      },
      components: {
        securitySchemes: { [TOKEN_SCHEME]: { type: 'apiKey', in: 'header', name: TOKEN_HEADER } },
      },
    },
    transform: transform as never,
  });
  await api.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: false });
  api.get(OPENAPI_PATH, { schema: { hide: true } }, async () => api.swagger());
}
