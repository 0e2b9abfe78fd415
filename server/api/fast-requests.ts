/**
 * Precompiled checks for the busiest small requests (the shop's listings), run before their zod schema: a request
 * they are sure of is parsed into exactly what the schema gives (same fields, defaults filled, unknown fields
 * dropped, the keyword trimmed); anything else, however slightly unusual (a number sent as a string, a missing or
 * over-long keyword, a list too long), answers `undefined` and goes through the schema, which also words the 400.
 * `test/server/fast-requests.test.ts` checks them against the schemas request by request.
 */
import type { ZodTypeAny } from 'zod';
import { GOODS_SORTS, goodsPageRequest, searchPageRequest } from '../../types/schemas/catalog';

type Body = Record<string, unknown>;

const SORTS: ReadonlySet<unknown> = new Set(GOODS_SORTS);
/** idList's bound (`types/schemas/catalog.ts`). */
const ID_LIST_MAX = 50;

/** pageFields: a whole number from `min` to `max`, or the default when absent. */
function pageNumber(value: unknown, max: number, absent: number): number | undefined {
  if (value === undefined) return absent;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : undefined;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** idList: at most 50 positive whole numbers, copied as zod copies an array. */
function idList(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length > ID_LIST_MAX) return undefined;
  for (const item of value) if (!isPositiveInteger(item)) return undefined;
  return value.slice();
}

function asBody(data: unknown): Body | undefined {
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Body) : undefined;
}

function goodsPage(data: unknown): unknown {
  const body = asBody(data);
  if (!body) return undefined;
  const page = pageNumber(body.page, 100000, 1);
  const pageSize = pageNumber(body.page_size, 100, 20);
  if (page === undefined || pageSize === undefined) return undefined;
  const sort = body.sort === undefined ? 'newest' : body.sort;
  const includeUnlisted = body.include_unlisted === undefined ? false : body.include_unlisted;
  if (!SORTS.has(sort) || typeof includeUnlisted !== 'boolean') return undefined;
  const value: Body = { page, page_size: pageSize };
  if (body.color_ids !== undefined) {
    const ids = idList(body.color_ids);
    if (!ids) return undefined;
    value.color_ids = ids;
  }
  if (body.filter_ids !== undefined) {
    const ids = idList(body.filter_ids);
    if (!ids) return undefined;
    value.filter_ids = ids;
  }
  if (body.category_id !== undefined) {
    if (!isPositiveInteger(body.category_id)) return undefined;
    value.category_id = body.category_id;
  }
  value.sort = sort;
  value.include_unlisted = includeUnlisted;
  return value;
}

function searchPage(data: unknown): unknown {
  const body = asBody(data);
  if (!body) return undefined;
  const page = pageNumber(body.page, 100000, 1);
  const pageSize = pageNumber(body.page_size, 100, 20);
  if (page === undefined || pageSize === undefined || typeof body.keyword !== 'string') return undefined;
  // requiredText(100): trimmed, then 1 to 100 characters.
  const keyword = body.keyword.trim();
  if (keyword.length < 1 || keyword.length > 100) return undefined;
  const sort = body.sort === undefined ? 'newest' : body.sort;
  if (!SORTS.has(sort)) return undefined;
  return { page, page_size: pageSize, keyword, sort };
}

/** The schemas that have a precompiled check, and their checks. */
export const fastRequests = new Map<ZodTypeAny, (data: unknown) => unknown>([
  [goodsPageRequest, goodsPage],
  [searchPageRequest, searchPage],
]);
