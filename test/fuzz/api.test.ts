import fc from 'fast-check';
import { GOOGLE_NOT_CONFIGURED } from '../../server/services/accounts';
import { WECHAT_NOT_CONFIGURED } from '../../server/services/wechat-login';
import { ADA, ADMIN, type TestServer, engines, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';
import { type Answer, type Route, apiFieldNames, apiRoutes, dbFingerprint, send, servedApiRoutes } from './routes';

/** Payloads per (route, role): small in CI, raise LENSMATE_FUZZ_RUNS for a longer run on demand. */
const RUNS = Number(process.env.LENSMATE_FUZZ_RUNS || 3);
const SEED = Number(process.env.LENSMATE_FUZZ_SEED || 20261122);
const GOOGLE_LOGIN = '/api/google/google_login';
const WECHAT_LOGIN = '/api/wechat/login';
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];

type Role = 'anonymous' | 'shopper' | 'admin';

const adversarialNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.5, 1e-9),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const adversarialString = fc.oneof(
  fc.string(),
  fc.fullUnicodeString({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    'Infinity',
    '-1',
    '1e309',
    'null',
    'true',
    '0x10',
    '\u0000',
    '\ud800',
    '👓🇫🇷\u202e',
    "' OR 1=1 --",
    '"; drop table users; --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '{"lines":[]}',
    '{"lines":[{"goods_id":1,"color_id":1,"quantity":1}]}',
    'admin@lensmate.test',
  ),
  fc.integer({ min: 1000, max: 300_000 }).map((length) => 'x'.repeat(length)),
);

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = asArray ? [value] : { a: value };
  return value;
}

function jsonValue(fields: string[]) {
  const key = fc.oneof(fc.constantFrom(...fields), fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 12 }));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      adversarialNumber,
      adversarialString,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      fc.tuple(fc.integer({ min: 20, max: 300 }), fc.boolean()).map(([depth, asArray]) => nested(depth, 1, asArray)),
    ),
  })).value;
}

/** A request body: mostly an object of the API's own field names, sometimes anything else at all. */
function payload(fields: string[]) {
  const value = jsonValue(fields);
  const objectBody = fc
    .tuple(
      fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 }),
      fc.option(fc.tuple(fc.constantFrom(...POLLUTION_KEYS), value), { freq: 3 }),
    )
    .map(([object, pollution]) => {
      if (!pollution) return JSON.stringify(object);
      // Written into the text so the key is an own "__proto__" property, as an attacker's JSON would have it.
      const inner = JSON.stringify(object).slice(1, -1);
      const extra = `${JSON.stringify(pollution[0])}:${JSON.stringify(pollution[1] ?? null)}`;
      return `{${inner ? `${inner},` : ''}${extra}}`;
    });
  return fc.oneof(
    { arbitrary: objectBody, weight: 60 },
    { arbitrary: value.map((anything) => JSON.stringify(anything) ?? 'null'), weight: 20 },
    {
      arbitrary: fc.constantFrom('', '{', '{"a":', 'undefined', '[1,]', "{'a':1}", '{"__proto__":{"is_admin":1}}'),
      weight: 10,
    },
    { arbitrary: fc.constant(`{"a":"${'y'.repeat(2 * 1024 * 1024 + 10)}"}`), weight: 1 },
    // Deeper than the client's own JSON.stringify could build: written as text.
    {
      arbitrary: fc
        .tuple(fc.integer({ min: 5000, max: 50_000 }), fc.constantFrom(['[', ']'], ['{"a":', '}']))
        .map(([depth, [open, close]]) => `${open.repeat(depth)}1${close.repeat(depth)}`),
      weight: 2,
    },
  );
}

/** Text that is not well-formed UTF-16 goes out as invalid UTF-8 bytes, as a hostile client could send it. */
function encodeQuery(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80%FF';
  }
}

/** GET routes take their input from the query string. */
function queryString(fields: string[]) {
  const part = fc.tuple(
    fc.oneof(fc.constantFrom(...fields), fc.constantFrom(...POLLUTION_KEYS, 'a[b]', 'a[__proto__]'), fc.string()),
    fc.oneof(
      adversarialString.filter((text) => text.length < 4000),
      adversarialNumber.map(String),
    ),
  );
  return fc
    .array(part, { maxLength: 5 })
    .map((parts) => parts.map(([name, value]) => `${encodeQuery(name)}=${encodeQuery(value)}`).join('&'));
}

// SQLite always; PostgreSQL too (in its own schema) when LENSMATE_TEST_PG is set.
describe.each(engines)('API fuzzing on %s: random and adversarial payloads on every endpoint', (engine) => {
  let server: TestServer;
  let routes: Route[];
  let fields: string[];
  const tokens: Partial<Record<Role, string>> = {};
  const tally = { tried: 0, refused: 0, accepted: 0 };
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  async function signIn(role: Role): Promise<void> {
    if (role === 'shopper') tokens.shopper = await server.login(ADA.email, ADA.password);
    if (role === 'admin') tokens.admin = await server.login(ADMIN.email, ADMIN.password);
  }

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    // Auth routes are rate limited; a high limit lets the fuzzer reach their validators (the limit has its own test).
    server = await startServer(engine, { AUTH_RATE_LIMIT_MAX: '100000' });
    routes = await apiRoutes(server.app);
    fields = await apiFieldNames(server.app);
    await signIn('shopper');
    await signIn('admin');
    console.log(
      `API fuzz (${engine}): seed ${SEED}, ${RUNS} payloads per route and role, ${routes.length} routes, ${fields.length} field names`,
    );
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    console.log(
      `API fuzz summary (${engine}): seed ${SEED}, payloads tried ${tally.tried}, refused ${tally.refused}, ` +
        `accepted ${tally.accepted}`,
    );
    recordReliability({ suite: `fuzz-api-${engine}`, payloads: tally.tried, refused: tally.refused });
    await server?.close();
  });

  test('the route list is read from the OpenAPI document and covers the whole API', () => {
    const urls = routes.map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(expect.arrayContaining(['POST /api/auth/login', 'GET /api/order/get_cart']));
    expect(routes.length).toBeGreaterThan(60);
    // Every route fastify serves under /api/ (but the documentation's own pages) is in the document.
    expect(servedApiRoutes(server.app)).toEqual(routes);
  });

  /** The property every answer must have; a refusal must also leave the database as it was. */
  function checkAnswer(route: Route, role: Role, request: string, answer: Answer, unchanged: boolean | null): void {
    const where = `${role} ${route.method} ${route.url} <- ${request.slice(0, 300)}`;
    const body = answer.body as { status?: unknown; msg?: unknown; data?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('status' in body) || !('msg' in body) || !('data' in body)) {
      throw new Error(`${where}: not a {status, msg, data} body: ${answer.text.slice(0, 300)}`);
    }
    if (body.status !== answer.http) throw new Error(`${where}: body status ${body.status} but HTTP ${answer.http}`);
    if (answer.http === 200) return;
    // The documented 5xx: a feature whose provider keys are not set says so (spec: Google login; WeChat login).
    const unavailable =
      answer.http === 503 &&
      ((body.msg === GOOGLE_NOT_CONFIGURED && route.url === GOOGLE_LOGIN) ||
        (body.msg === WECHAT_NOT_CONFIGURED && route.url === WECHAT_LOGIN));
    if (answer.http >= 500 && !unavailable)
      throw new Error(`${where}: HTTP ${answer.http} ${answer.text.slice(0, 300)}`);
    if (answer.http < 400 && !unavailable) throw new Error(`${where}: refusal with HTTP ${answer.http}`);
    if (typeof body.msg !== 'string' || body.msg.trim() === '') throw new Error(`${where}: refusal without msg`);
    if (body.data !== null) throw new Error(`${where}: refusal carries data ${JSON.stringify(body.data)}`);
    if (unchanged === false) throw new Error(`${where}: refused (${answer.http} ${body.msg}) but the database changed`);
  }

  async function fuzz(role: Role): Promise<void> {
    for (const [index, route] of routes.entries()) {
      const input = route.method === 'GET' ? queryString(fields) : payload(fields);
      await fc.assert(
        fc.asyncProperty(input, async (request) => {
          const before = await dbFingerprint(server);
          const answer =
            route.method === 'GET'
              ? await send(server, 'GET', `${route.url}${request ? `?${request}` : ''}`, undefined, tokens[role])
              : await send(server, 'POST', route.url, request, tokens[role]);
          tally.tried++;
          if (answer.http === 200) tally.accepted++;
          else tally.refused++;
          const unchanged = answer.http === 200 ? null : before === (await dbFingerprint(server));
          checkAnswer(route, role, request, answer, unchanged);
          // An accepted logout or password change revokes the token; sign in again to keep fuzzing as this role.
          if (role !== 'anonymous' && answer.http === 200 && /logout|password/.test(route.url)) await signIn(role);
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    }
    expect(unhandled).toEqual([]);
    const alive = await send(server, 'GET', '/api/config/shop_config', undefined);
    expect(alive.http).toBe(200);
  }

  test('as an anonymous user', () => fuzz('anonymous'), 600_000);
  test('as a shopper', () => fuzz('shopper'), 600_000);
  test('as an admin', () => fuzz('admin'), 600_000);

  test('prototype-pollution keys never reach Object.prototype', async () => {
    const polluted = '{"__proto__":{"is_admin":1,"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    for (const route of routes.filter((candidate) => candidate.method === 'POST')) {
      const answer = await send(server, 'POST', route.url, polluted, tokens.shopper);
      checkAnswer(route, 'shopper', polluted, answer, null);
      expect(answer.http).toBe(400);
      tally.tried++;
      tally.refused++;
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);
});
