/**
 * How a route of the product API is declared: by its entry in the contract map (types/contract.ts), inside a route
 * group whose access is checked by one hook. The entry's schemas validate the request (a refusal is a 400 naming
 * the field of the first problem, e.g. `email: Invalid email`) and serialize the answer; the path comes from the
 * entry's key; the handler gets the parsed request and, in a signed-in group, the user, and answers with the
 * `data` of the success (or with pre-serialized JSON, see `JsonText`). See the README ("Adding a route").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, preValidationHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import type { ZodError, ZodTypeAny } from 'zod';
import {
  type AnswerOf,
  type ContractRoute,
  type ParsedRequestOf,
  type RouteSchema,
  contract,
} from '../../types/contract';
import { refusal, success } from '../../types/schemas/common';
import { type UserRow, optionalUser, requireAdmin, requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, MSG, ok } from '../http';
import { fastRequests } from './fast-requests';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user in a `user` or `admin` group (set by the group's hook); null in a public group. */
    user: UserRow | null;
  }
}

/**
 * Who may call a group's routes. `public`: anyone, and the token is not read (a handler that needs the caller only
 * in some case reads `optionalUser` then); `viewer`: anyone, and a token, when sent, must be valid (the handler gets
 * the user or null); `user`: a valid token (none: 403 `Invalid token`; unknown or expired: 401); `admin`: an
 * admin's token (a shopper's: 403 `Admin only`).
 */
export type Access = 'public' | 'viewer' | 'user' | 'admin';

type Caller<A extends Access> = A extends 'public' ? null : A extends 'viewer' ? UserRow | null : UserRow;

/** An answer already serialized: sent as it is (the listing caches keep answers as their UTF-8 bytes). */
export class JsonText {
  constructor(readonly text: string | Buffer) {}
}

/**
 * An answer serialized now, checked against its route's schema as the serializer checks every other answer: for
 * answers kept and sent again as bytes (the listing caches).
 */
export function serializedAnswer<K extends ContractRoute>(route: K, data: AnswerOf<K>): JsonText {
  const checked = contract[route].response.safeParse(data);
  if (!checked.success) throw new AnswerShapeError(route, checked.error);
  return new JsonText(Buffer.from(JSON.stringify(ok(checked.data))));
}

export interface RouteCall<K extends ContractRoute, A extends Access> {
  /** The request after validation: the JSON body of a POST, the query of a GET. */
  input: ParsedRequestOf<K>;
  user: Caller<A>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RouteHandler<K extends ContractRoute, A extends Access> = (
  call: RouteCall<K, A>,
) => Promise<AnswerOf<K> | JsonText>;

/** What a route may add to its group's: route config (rate limits), a body limit, hooks that run before its group's. */
export interface RouteExtras {
  config?: Record<string, unknown>;
  bodyLimit?: number;
  /** Run before the group's access hook (e.g. refusing a request that is not multipart before anyone is identified). */
  preValidation?: preValidationHookHandler[];
  /** Said in the API documentation, e.g. which requests only staff may make. */
  description?: string;
}

export interface RouteGroup<A extends Access> {
  route<K extends ContractRoute>(route: K, handler: RouteHandler<K, A>, extras?: RouteExtras): void;
}

export interface GroupSpec<A extends Access> {
  access: A;
  /** The tag of the group's routes in the API documentation, e.g. `order`. */
  tag: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The name of the token scheme in the OpenAPI document. */
export const TOKEN_SCHEME = 'token';

/** Each group's access hook, so a route can run its own checks first (`RouteExtras.preValidation`). */
function accessHook(ctx: AppContext, access: Access): preValidationHookHandler | null {
  if (access === 'public') return null;
  const check = access === 'admin' ? requireAdmin : access === 'user' ? requireUser : optionalUser;
  return async (request) => {
    request.user = await check(ctx, request);
  };
}

/**
 * Registers a group of routes that share one access rule: an encapsulated fastify context whose preValidation
 * hook identifies the caller (after the body is parsed, before it is validated, as the handlers used to).
 */
export function routeGroup<A extends Access>(
  app: FastifyInstance,
  ctx: AppContext,
  spec: GroupSpec<A>,
  define: (group: RouteGroup<A>) => void,
): void {
  app.register(async (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const hook = accessHook(ctx, spec.access);
    define({
      route(key, handler, extras = {}) {
        const entry: RouteSchema = contract[key];
        const [method, url] = key.split(' ') as ['GET' | 'POST', string];
        const schema: FastifySchema & Record<string, unknown> = {
          tags: [spec.tag],
          summary: entry.summary,
          response: { 200: success(entry.response), '4xx': refusal },
        };
        // A viewer group's token is optional: OpenAPI writes that as an empty requirement beside the token's.
        if (spec.access === 'viewer') schema.security = [{}, { [TOKEN_SCHEME]: [] }];
        if (spec.access === 'user' || spec.access === 'admin') schema.security = [{ [TOKEN_SCHEME]: [] }];
        const notes = [spec.access === 'admin' ? 'Admin only.' : '', extras.description ?? ''].filter(Boolean);
        if (notes.length > 0) schema.description = notes.join(' ');
        if (entry.multipart) {
          // The parts are read by the handler; the form is documented, not validated here.
          schema.consumes = ['multipart/form-data'];
          schema.multipartForm = entry.request;
        } else if (method === 'GET') schema.querystring = entry.request;
        else schema.body = entry.request;
        const preValidation = [...(extras.preValidation ?? []), ...(hook ? [hook] : [])];
        typed.route({
          method,
          url,
          schema,
          config: extras.config,
          bodyLimit: extras.bodyLimit,
          preValidation,
          handler: async (request, reply) => {
            const input = (method === 'GET' ? request.query : request.body) as ParsedRequestOf<typeof key>;
            const user = request.user as Caller<A>;
            const answer = await handler({ input, user, request, reply });
            if (answer instanceof JsonText) return reply.type(JSON_TYPE).send(answer.text);
            return ok(answer);
          },
        });
      },
    });
  });
}

/** In a `viewer` group, the caller when the request needs one (e.g. a profile without user_id is the caller's own). */
export function signedIn(user: UserRow | null): UserRow {
  if (!user) throw new ApiError(403, MSG.invalidToken);
  return user;
}

/** The first problem of a refused request as the API words it: `field.path: message` (`body: …` for the whole). */
export function firstIssue(error: ZodError): string {
  const issue = error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `${field}: ${issue.message}`;
}

/** Validation by the route's zod schema; an absent body or query is an empty object, as it always was. */
export function zodValidatorCompiler({ schema }: { schema: ZodTypeAny }) {
  // The listings' requests first go through a precompiled check that gives what the schema would (fast-requests.ts).
  const fast = fastRequests.get(schema);
  return (data: unknown) => {
    if (fast) {
      const value = fast(data ?? {});
      if (value !== undefined) return { value };
    }
    const result = schema.safeParse(data ?? {});
    if (result.success) return { value: result.data };
    return { error: new ApiError(400, firstIssue(result.error)) };
  };
}

/** An answer that does not match its route's schema: a bug of the server, answered as a 500 and logged. */
export class AnswerShapeError extends Error {
  constructor(route: string, error: ZodError) {
    super(`${route} answered a shape its schema refuses: ${firstIssue(error)}`);
  }
}

/**
 * Serialization by the route's zod schema: the answer is checked against the contract and loses any field the
 * contract does not list (so no internal column leaks), then written as JSON.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<ZodTypeAny> =
  ({ schema, method, url }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new AnswerShapeError(`${method} ${url}`, result.error);
    return JSON.stringify(result.data);
  };
