import type { ZodTypeAny } from 'zod';
import { fastRequests } from '../../server/api/fast-requests';
import { firstIssue, zodValidatorCompiler } from '../../server/api/route';
import { contract } from '../../types/contract';
import { goodsPageRequest, searchPageRequest } from '../../types/schemas/catalog';

/**
 * The listings' precompiled request checks (server/api/fast-requests.ts) must give exactly what their zod schemas
 * give, or step aside: thousands of requests, built from usual and unusual values of every field, go through both.
 */

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const numbers = [undefined, 1, 2, 20, 100, 101, 100000, 100001, 0, -1, 1.5, '2', '', null, true, [3], {}];
const idLists = [
  undefined,
  [],
  [1],
  [1, 9, 9],
  [0],
  [-3],
  [2.5],
  ['4'],
  [null],
  Array.from({ length: 50 }, (_, i) => i + 1),
  Array.from({ length: 51 }, (_, i) => i + 1),
  null,
  5,
  'x',
  {},
];
const sorts = [undefined, 'newest', 'price_asc', 'price_desc', 'discount', 'oldest', 'NEWEST', 3, null, ['newest']];
const booleans = [undefined, true, false, 'true', 0, 1, null];
const keywords = [
  undefined,
  'round',
  '  harbor 42 ',
  'Ö',
  '',
  '   ',
  'x'.repeat(100),
  'x'.repeat(101),
  ` ${'y'.repeat(100)}\t`,
  5,
  null,
  ['round'],
];
const extras = [undefined, 'ignored', { nested: true }];

function pick<T>(next: () => number, values: T[]): T {
  return values[Math.floor(next() * values.length)];
}

function body(next: () => number, fields: Record<string, unknown[]>): unknown {
  const roll = next();
  if (roll < 0.02) return pick(next, [[], 'page', 7, null, undefined, [{ page: 1 }]]);
  const made: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(fields)) {
    const value = pick(next, values);
    if (value !== undefined) made[name] = value;
  }
  return made;
}

const cases: [string, ZodTypeAny, Record<string, unknown[]>][] = [
  [
    'get_goods_page',
    goodsPageRequest,
    {
      page: numbers,
      page_size: numbers,
      color_ids: idLists,
      filter_ids: idLists,
      category_id: numbers,
      sort: sorts,
      include_unlisted: booleans,
      other: extras,
    },
  ],
  [
    'search_page',
    searchPageRequest,
    { page: numbers, page_size: numbers, keyword: keywords, sort: sorts, other: extras },
  ],
];

describe.each(cases)('the precompiled check of %s', (_name, schema, fields) => {
  const fast = fastRequests.get(schema);
  const validate = zodValidatorCompiler({ schema });

  it('is the one of the contract entry the route validates with', () => {
    expect(fast).toBeDefined();
    expect([
      contract['POST /api/goods/get_goods_page'].request,
      contract['POST /api/goods/search_page'].request,
    ]).toContain(schema);
  });

  it('gives what the schema gives, field for field and in the same order, or leaves the request to the schema', () => {
    const next = random(21);
    let taken = 0;
    let refused = 0;
    for (let i = 0; i < 20000; i += 1) {
      const data = body(next, fields);
      const parsed = schema.safeParse(data ?? {});
      const quick = fast?.(data ?? {});
      if (quick !== undefined) {
        taken += 1;
        expect(parsed.success).toBe(true);
        expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
        expect(quick).toStrictEqual(parsed.data);
      }
      // What the route's validator answers is the schema's answer, whichever way it went.
      const answer = validate(data);
      if (parsed.success) expect(answer).toStrictEqual({ value: parsed.data });
      else {
        refused += 1;
        expect(answer.error?.message).toBe(firstIssue(parsed.error));
      }
    }
    // Both ways were taken many times: the check is not idle, and bad requests still meet the schema.
    expect(taken).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('takes the usual requests of the app', () => {
    const usual = 'keyword' in fields ? { keyword: 'round' } : {};
    expect(fast?.(usual)).toBeDefined();
    expect(fast?.({ ...usual, page: 2, page_size: 20, sort: 'price_asc' })).toBeDefined();
  });
});
