import type { FastifyReply, FastifyRequest } from 'fastify';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type ZodTypeAny, z } from 'zod';
import type { ApiBody, ApiStatus } from '../types/api';

/** An answer other than success: the body carries the same status as the HTTP response. */
export class ApiError extends Error {
  constructor(
    readonly status: Exclude<ApiStatus, 200> | 500,
    message: string,
  ) {
    super(message);
  }
}

export const MSG = {
  invalidToken: 'Invalid token',
  unauthorized: 'Unauthorized',
  adminOnly: 'Admin only',
} as const;

export function ok<T>(data: T): ApiBody<T> {
  return { status: 200, msg: 'ok', data };
}

export function fail(reply: FastifyReply, status: number, msg: string): FastifyReply {
  return reply.code(status).send({ status, msg, data: null });
}

/** Parses a payload; the first problem becomes a 400 naming the field, e.g. `email: Invalid email`. */
export function parse<S extends ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  throw new ApiError(400, `${field}: ${issue.message}`);
}

export function body<S extends ZodTypeAny>(request: FastifyRequest, schema: S): z.infer<S> {
  return parse(schema, request.body);
}

export function query<S extends ZodTypeAny>(request: FastifyRequest, schema: S): z.infer<S> {
  return parse(schema, request.query);
}

export const id = z.coerce
  .number({ invalid_type_error: 'must be a number' })
  .int('must be an integer')
  .positive('must be positive');
export const pageFields = {
  page: z.coerce.number().int().min(1).max(100000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
};
/**
 * One page of a list and the size of the whole list: `select` adds the columns and the order to `base`, the page
 * comes from `page` and `page_size`, and the total is `count(*)` of `base` unless the caller knows it.
 */
export async function pageRows<DB, TB extends keyof DB, O, Row>(
  base: SelectQueryBuilder<DB, TB, O>,
  paging: { page: number; page_size: number },
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  knownTotal?: number,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, total] = await Promise.all([
    select(base)
      .limit(paging.page_size)
      .offset((paging.page - 1) * paging.page_size)
      .execute(),
    knownTotal ?? countRows(base),
  ]);
  return { rows: rows as Row[], total };
}

/** `count(*)` of a query's rows. */
export async function countRows<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number((row as unknown as { n: number | string }).n);
}

export const money = z
  .number({ invalid_type_error: 'must be a number' })
  .nonnegative('must not be negative')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most 2 decimals');

export const toCents = (value: number) => Math.round(value * 100);
export const fromCents = (cents: number) => Math.round(cents) / 100;

export function jsonParse<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
