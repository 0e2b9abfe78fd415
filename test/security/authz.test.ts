import { MSG } from '../../server/http';
import { type Answer, type Route, apiRoutes, dbFingerprint, openApiDocument, send } from '../fuzz/routes';
import { ADA, ADMIN, BEN, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';

/** Routes anyone may call without a token (the catalogue, articles, sign-in and recovery). */
const PUBLIC = new Set([
  'POST /api/track/webhook/17track',
  'GET /api/article/get_article',
  'GET /api/article/get_article_category',
  'POST /api/article/get_article_list',
  'POST /api/auth/check_account',
  'POST /api/auth/forget_password',
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/wechat/login',
  'GET /api/config/get_category_page',
  'GET /api/config/get_colors',
  'GET /api/config/get_countries',
  'GET /api/config/get_coupons',
  'GET /api/config/get_discount',
  'GET /api/config/get_filters',
  'POST /api/config/get_recommend_coupons',
  'POST /api/config/get_shipping_method',
  'GET /api/config/shop_config',
  'POST /api/goods/get_goods_by_id',
  'POST /api/goods/get_goods_page',
  'POST /api/goods/get_lens_color',
  'POST /api/goods/get_lens_thickness',
  'POST /api/goods/get_lens_type',
  'GET /api/goods/lens_coating',
  'GET /api/goods/prism_price',
  'POST /api/goods/search_page',
  'POST /api/google/google_login',
  'GET /api/index/shop_mainpage',
  'GET /api/index/shop_mainpage_detail',
  'GET /api/payment/methods',
  'POST /api/payment/webhook/stripe',
  'POST /api/payment/webhook/paypal',
  'POST /api/payment/webhook/braintree',
  'POST /api/payment/webhook/wechat',
  'POST /api/review/get_reviews',
  'POST /api/social/album',
  'POST /api/social/comments',
  'POST /api/social/likes',
  'POST /api/social/tag_images',
  'POST /api/social/tags',
  'POST /api/social/users',
  'POST /api/user/change_password_with_verification_code',
]);
/** Routes only an admin may call. */
const ADMIN_ONLY = new Set([
  'POST /api/admin/article/list',
  'POST /api/admin/goods/list',
  'POST /api/admin/order/cancel',
  'POST /api/admin/order/deliver',
  'POST /api/admin/order/detail',
  'POST /api/admin/order/list',
  'POST /api/admin/order/refund',
  'POST /api/admin/order/ship',
  'POST /api/admin/cs_agent_assign',
  'POST /api/admin/cs_agent_remove',
  'POST /api/admin/cs_agents',
  'POST /api/article/delete_article',
  'POST /api/article/insert_article',
  'POST /api/article/update_article',
  'POST /api/goods/delete_goods',
  'POST /api/goods/save_goods',
  // Swept with save_to GOODS; the AVATAR and MYPRESCRIPTION folders open to shoppers are tested below.
  'POST /api/goods/save_goods_media_files',
  'POST /api/goods/unlist_goods',
  'POST /api/order/update_order_status',
]);
/** Multipart routes: an empty JSON body is refused as the wrong media before anyone is identified. */
const MULTIPART = new Set(['POST /api/goods/save_goods_media_files', 'POST /api/social/upload_image']);

type Policy = 'public' | 'shopper' | 'admin';
const policyOf = (key: string): Policy => (PUBLIC.has(key) ? 'public' : ADMIN_ONLY.has(key) ? 'admin' : 'shopper');

/** What an answer says about access: refused for want of a token, refused for want of admin, or let through. */
function access(answer: Answer): 'no token' | 'admin only' | 'stale token' | 'allowed' {
  const msg = (answer.body as { msg?: string } | undefined)?.msg;
  if (answer.http === 403 && msg === MSG.invalidToken) return 'no token';
  if (answer.http === 403 && msg === MSG.adminOnly) return 'admin only';
  if (answer.http === 401 && msg === MSG.unauthorized) return 'stale token';
  return 'allowed';
}

function multipart(fields: Record<string, string>): { body: FormData } {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' }), 'x.png');
  return { body: form };
}

async function sendForm(server: TestServer, url: string, form: FormData, token?: string): Promise<Answer> {
  const response = await fetch(`${server.base}${url}`, {
    method: 'POST',
    headers: token ? { 'lensmate-token': token } : {},
    body: form,
  });
  const text = await response.text();
  return { http: response.status, body: JSON.parse(text), text };
}

describe('authorization sweep generated from the routes', () => {
  let server: TestServer;
  let routes: Route[];
  let ada: string;
  let ben: string;
  let admin: string;

  beforeAll(async () => {
    server = await startServer('sqlite', { AUTH_RATE_LIMIT_MAX: '100000' });
    routes = await apiRoutes(server.app);
    [ada, ben, admin] = await Promise.all([
      server.login(ADA.email, ADA.password),
      server.login(BEN.email, BEN.password),
      server.login(ADMIN.email, ADMIN.password),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Logout revokes the token it is called with, so each call gets a token of its own. */
  async function tokenFor(role: 'shopper' | 'admin', route: Route): Promise<string> {
    if (!route.url.endsWith('/logout')) return role === 'shopper' ? ada : admin;
    return role === 'shopper' ? server.login(ADA.email, ADA.password) : server.login(ADMIN.email, ADMIN.password);
  }

  async function call(route: Route, token: string | undefined): Promise<Answer> {
    const key = `${route.method} ${route.url}`;
    if (MULTIPART.has(key)) return sendForm(server, route.url, multipart({ save_to: 'GOODS' }).body, token);
    return send(server, route.method, route.url, route.method === 'POST' ? '{}' : undefined, token);
  }

  test('every route answers anonymous users, shoppers and admins as its policy says', async () => {
    const table: string[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const policy = policyOf(key);
      const anonymous = access(await call(route, undefined));
      const shopper = access(await call(route, await tokenFor('shopper', route)));
      const adminAccess = access(await call(route, await tokenFor('admin', route)));
      const stale = access(await call(route, 'not-a-token-anyone-was-given'));
      table.push(`${key.padEnd(58)} ${policy.padEnd(8)} ${anonymous.padEnd(11)} ${shopper.padEnd(11)} ${adminAccess}`);
      const expected = {
        anonymous: policy === 'public' ? 'allowed' : 'no token',
        shopper: policy === 'admin' ? 'admin only' : 'allowed',
        admin: 'allowed',
        stale: policy === 'public' ? ['allowed', 'stale token'] : ['stale token'],
      };
      if (anonymous !== expected.anonymous)
        wrong.push(`${key}: anonymous ${anonymous}, expected ${expected.anonymous}`);
      if (shopper !== expected.shopper) wrong.push(`${key}: shopper ${shopper}, expected ${expected.shopper}`);
      if (adminAccess !== expected.admin) wrong.push(`${key}: admin ${adminAccess}, expected ${expected.admin}`);
      if (!expected.stale.includes(stale)) wrong.push(`${key}: unknown token ${stale}, expected ${expected.stale}`);
    }
    // Four calls per route (no token, shopper, admin, unknown token), each checked against the policy.
    recordReliability({ suite: 'authz-sweep', payloads: routes.length * 4, wrong: wrong.length });
    console.log(
      `Authorization table (${routes.length} routes)\n${'route'.padEnd(58)} ${'policy'.padEnd(8)} ` +
        `${'anonymous'.padEnd(11)} ${'shopper'.padEnd(11)} admin\n${table.join('\n')}`,
    );
    // A new route fails here until it is placed in PUBLIC or ADMIN_ONLY, or proves it needs a shopper's token.
    expect(wrong).toEqual([]);
    const known = new Set(routes.map((route) => `${route.method} ${route.url}`));
    expect([...PUBLIC, ...ADMIN_ONLY, ...MULTIPART].filter((key) => !known.has(key))).toEqual([]);
  }, 120_000);

  test('the OpenAPI document tells which routes take a token, as the sweep found them', async () => {
    const document = await openApiDocument(server.app);
    const wrong: string[] = [];
    for (const [url, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const key = `${method.toUpperCase()} ${url}`;
        // Routes not yet declared by the contract map carry no tag and no security in the document.
        if (!operation.tags) continue;
        const schemes = operation.security ?? [];
        const required = schemes.length > 0 && schemes.every((scheme) => Object.keys(scheme).length > 0);
        const optional = schemes.some((scheme) => Object.keys(scheme).length === 0);
        const policy = policyOf(key);
        // Public routes take no token (or an optional one); a shopper's route needs one, unless the token is
        // optional and only some requests need it (e.g. a profile without user_id is the caller's own).
        if (policy === 'public' && required) wrong.push(`${key}: public, but the document requires a token`);
        if (policy !== 'public' && !required && !optional)
          wrong.push(`${key}: ${policy}, but no token in the document`);
        const adminOnly = /Admin only/.test(operation.description ?? '');
        if (adminOnly !== (policy === 'admin' && required))
          wrong.push(`${key}: ${policy}, but the document says admin only: ${adminOnly}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('goods media uploads: shoppers may store avatars and prescriptions, never goods or article media', async () => {
    const url = '/api/goods/save_goods_media_files';
    for (const saveTo of ['GOODS', 'ARTICLE']) {
      const before = await dbFingerprint(server);
      const shopper = await sendForm(server, url, multipart({ save_to: saveTo }).body, ada);
      expect([shopper.http, (shopper.body as { msg: string }).msg]).toEqual([403, MSG.adminOnly]);
      expect(await dbFingerprint(server)).toBe(before);
      const anonymous = await sendForm(server, url, multipart({ save_to: saveTo }).body);
      expect([anonymous.http, (anonymous.body as { msg: string }).msg]).toEqual([403, MSG.invalidToken]);
    }
    const avatar = await sendForm(server, url, multipart({ save_to: 'AVATAR' }).body, ada);
    expect(access(avatar)).toBe('allowed');
    const goods = await sendForm(server, url, multipart({ save_to: 'GOODS' }).body, admin);
    expect(access(goods)).toBe('allowed');
  });

  describe("a shopper cannot read or change another shopper's data", () => {
    let addressId: number;
    let prescriptionId: number;
    let orderId: number;
    let frameLine: { goods_id: number; color_id: number; quantity: number };
    let shippingId: number;
    const cart = (lines: unknown[]) => ({ content: JSON.stringify({ lines }) });

    beforeAll(async () => {
      const address = await server.call(
        'POST',
        '/api/user/set_user_address',
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone: '+44 20 7946 0000',
          country_code: 'gb',
          city: 'London',
          street: '12 Baker St',
          zip: 'NW1 6XE',
        },
        ada,
      );
      addressId = address.body.data.address_id;
      const rx = await server.call(
        'POST',
        '/api/order/submit_my_prescription',
        {
          name: 'Ada 2026',
          od: { sph: -2.25, cyl: null, axis: null, add: null, prism: null, base: null },
          os: { sph: -2, cyl: null, axis: null, add: null, prism: null, base: null },
          pd: { kind: 'single', value: 63 },
        },
        ada,
      );
      prescriptionId = rx.body.data.prescription_id;
      const page = (await server.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
      const frame = page.find((goods: any) => goods.color_arr[0].stock === null);
      frameLine = { goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 };
      const line = frameLine;
      expect((await server.call('POST', '/api/order/upload_cart', cart([line]), ada)).body.status).toBe(200);
      const shipping = (await server.call('POST', '/api/config/get_shipping_method', {})).body.data[0];
      shippingId = shipping.shipping_method_id;
      const order = await server.call(
        'POST',
        '/api/order/submit_order',
        {
          client_key: 'authz-ada-0001',
          address_id: addressId,
          shipping_method_id: shipping.shipping_method_id,
          lines: [line],
        },
        ada,
      );
      expect(order.body.msg).toBe('ok');
      orderId = order.body.data.order_id;
      expect([addressId, prescriptionId, orderId].every((value) => Number.isInteger(value))).toBe(true);
    });

    test("reading: Ben's lists never contain Ada's address, prescription, cart or order", async () => {
      const addresses = (await server.call('POST', '/api/user/get_user_address', {}, ben)).body.data;
      expect(addresses.map((entry: any) => entry.address_id)).not.toContain(addressId);
      const prescriptions = (await server.call('GET', '/api/user/get_my_prescription', undefined, ben)).body.data;
      expect(prescriptions.map((entry: any) => entry.prescription_id)).not.toContain(prescriptionId);
      expect((await server.call('GET', '/api/order/get_cart', undefined, ben)).body.data.lines).toEqual([]);
      const orders = await server.call('POST', '/api/order/get_user_order', { order_id: orderId }, ben);
      expect(orders.body.data.list).toEqual([]);
      expect(orders.body.data.total).toBe(0);
    });

    test("changing: every attempt on Ada's ids is refused and leaves her data as it was", async () => {
      const attempts: [string, unknown][] = [
        ['/api/user/delete_user_address', { address_id: addressId }],
        [
          '/api/user/set_user_address',
          {
            address_id: addressId,
            first_name: 'Mallory',
            last_name: 'X',
            phone: '+44 20 7946 0001',
            country_code: 'gb',
            city: 'London',
            street: '1 Evil St',
            zip: 'NW1 6XE',
          },
        ],
        ['/api/user/delete_my_prescription', { prescription_id: prescriptionId }],
        [
          '/api/order/submit_my_prescription',
          {
            prescription_id: prescriptionId,
            name: 'Mallory',
            od: { sph: 1, cyl: null, axis: null, add: null, prism: null, base: null },
            os: { sph: 1, cyl: null, axis: null, add: null, prism: null, base: null },
            pd: { kind: 'single', value: 60 },
          },
        ],
        ['/api/order/delete_order', { order_id: orderId }],
        ['/api/order/update_order_status', { order_id: orderId, status: 'cancelled' }],
        ['/api/payment/get_secret_for_stripe', { order_id: orderId }],
        ['/api/payment/confirm_stripe', { order_id: orderId }],
        ['/api/paypal/create_order', { order_id: orderId }],
        ['/api/paypal/capture_order', { order_id: orderId }],
        ['/api/payment/paypal_braintree_checkout', { order_id: orderId, payment_method_nonce: 'tokencc_ada' }],
        [
          '/api/order/submit_order',
          { client_key: 'authz-ben-0001', address_id: addressId, shipping_method_id: shippingId, lines: [frameLine] },
        ],
      ];
      const adaBefore = JSON.stringify(await adaView());
      for (const [url, payload] of attempts) {
        const before = await dbFingerprint(server);
        const answer = await server.call('POST', url, payload, ben);
        expect({ url, status: answer.body.status >= 400 && answer.body.status < 500 }).toEqual({ url, status: true });
        expect({ url, msg: typeof answer.body.msg === 'string' && answer.body.msg.length > 0 }).toEqual({
          url,
          msg: true,
        });
        expect({ url, unchanged: (await dbFingerprint(server)) === before }).toEqual({ url, unchanged: true });
      }
      expect(JSON.stringify(await adaView())).toBe(adaBefore);
    });

    test("Ben's own cart upload never touches Ada's cart", async () => {
      const adaCart = (await server.call('GET', '/api/order/get_cart', undefined, ada)).body.data;
      expect((await server.call('POST', '/api/order/upload_cart', cart([]), ben)).body.status).toBe(200);
      expect((await server.call('GET', '/api/order/get_cart', undefined, ada)).body.data).toEqual(adaCart);
      expect(adaCart.lines).toHaveLength(1);
    });

    async function adaView(): Promise<unknown[]> {
      return [
        (await server.call('POST', '/api/user/get_user_address', {}, ada)).body.data,
        (await server.call('GET', '/api/user/get_my_prescription', undefined, ada)).body.data,
        (await server.call('POST', '/api/order/get_user_order', {}, ada)).body.data,
        (await server.call('GET', '/api/order/get_cart', undefined, ada)).body.data,
      ];
    }
  });
});
