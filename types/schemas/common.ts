/**
 * The pieces every part of the contract uses: ids, money, paging, and the `{status, msg, data}` envelope.
 * Request schemas carry the exact refusal messages (the server's 400 is `<field>: <message>` of the first issue);
 * response schemas describe shapes only. Zod is a server dependency: the app imports this contract for its types
 * only (`import type`), which the build erases, so no schema reaches the mini-program bundle.
 */
import { z } from 'zod';

/** A positive whole id, also from a query string (`?id=3`). */
export const id = z.coerce
  .number({ invalid_type_error: 'must be a number' })
  .int('must be an integer')
  .positive('must be positive');

/** A positive whole id in a JSON body (no coercion). */
export const bodyId = z.number().int().positive();

/** Paging of a list request: 1-based page, 1 to 100 a page, 20 by default. */
export const pageFields = {
  page: z.coerce.number().int().min(1).max(100000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
};

/** The largest page an admin list gives (the shop's lists give at most 100 too). */
export const ADMIN_PAGE_SIZE_MAX = 100;
/** The longest search of an admin list. */
export const ADMIN_SEARCH_MAX = 100;

/**
 * An admin list's request (glasses, articles, orders): 1-based page, 1 to 100 a page, 20 by default, and an optional
 * search. A JSON body, so no coercion: `"2"` for a page is refused, as a negative page or a huge size is.
 */
export const adminListFields = {
  page: z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(100000, 'must be at most 100000')
    .default(1),
  page_size: z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(ADMIN_PAGE_SIZE_MAX, `must be at most ${ADMIN_PAGE_SIZE_MAX}`)
    .default(20),
  /** What the list is searched by (a name, a title, an order number; any case); blank is no search. */
  q: z
    .string({ invalid_type_error: 'must be text' })
    .trim()
    .max(ADMIN_SEARCH_MAX, `must be at most ${ADMIN_SEARCH_MAX} characters`)
    .optional(),
};

/** A money amount given by a client: at most 2 decimals, 0 to 1,000,000. */
export const money = z
  .number({ invalid_type_error: 'must be a number' })
  .nonnegative('must not be negative')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most 2 decimals');

/** A required string field: `is required` when absent or blank after trimming. */
export const requiredText = (max: number) =>
  z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(max);

/** A request without fields (extra fields are ignored, as they always were). */
export const empty = z.object({});

/** One page of a list and the size of the whole list. */
export const page = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), page: z.number(), page_size: z.number() });

export const deleted = z.object({ deleted: z.literal(true) });

/** A user as content shows its author or owner. */
export const person = z.object({ user_id: z.number(), nickname: z.string(), avatar: z.string() });

/** The body of every success: `data` is the route's answer. */
export const success = <T extends z.ZodTypeAny>(data: T) => z.object({ status: z.literal(200), msg: z.string(), data });

/** The body of every refusal: the HTTP status again, a human-readable message (for 400 naming the field), no data. */
export const refusal = z.object({
  status: z.number().int().min(400).max(599),
  msg: z.string(),
  data: z.null(),
});
