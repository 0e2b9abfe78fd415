/**
 * Type-level tests of the contract map, checked by `tsc` in `npm run lint` (never run): each `@ts-expect-error`
 * line must fail to type-check, or tsc reports the directive as unused. They prove that the app's request layer,
 * the page tests' fakes and the server's handlers accept only the contract's routes with the contract's shapes.
 */
import { get, post, upload } from '@/core/request';
import type { FastifyInstance } from 'fastify';
import { routeGroup } from '../../server/api/route';
import type { AppContext } from '../../server/context';
import type { Order } from '../../types/api';
import { fakeApi as fakeByPath, ok } from '../setup/mount-app';
import { fakeApi } from '../setup/page-helpers';

export async function theRequestLayer(): Promise<void> {
  // Known paths: the request and the answer are inferred.
  const order: Order = await post('/api/order/submit_order', {
    client_key: 'k-0000001',
    address_id: 1,
    shipping_method_id: 2,
  });
  const cart = await get('/api/order/get_cart');
  cart.lines satisfies unknown[];
  order.order_id satisfies number;
  await upload('/api/social/upload_image', '/tmp/a.png', 'SOCIAL');

  // @ts-expect-error an unknown path
  await post('/api/order/no_such_route', {});
  // @ts-expect-error a GET route posted to
  await post('/api/order/get_cart', {});
  // @ts-expect-error a required field missing (shipping_method_id)
  await post('/api/order/submit_order', { client_key: 'k-0000001', address_id: 1 });
  // @ts-expect-error a field of the wrong type
  await post('/api/order/delete_order', { order_id: 'seven' });
  // @ts-expect-error a field the route does not take
  await post('/api/order/delete_order', { order_id: 7, reason: 'none' });
  // @ts-expect-error the answer is an Order, which has no `orders`
  (await post('/api/order/submit_order', { client_key: 'k', address_id: 1, shipping_method_id: 2 })).orders;
  // @ts-expect-error a JSON route is no upload
  await upload('/api/order/submit_order', '/tmp/a.png', 'SOCIAL');
}

export function thePageFakes(): void {
  const api = fakeApi({
    'GET /api/config/shop_config': () => ok({ shop_name: 'Lensmate' }),
    // @ts-expect-error an unknown route
    'POST /api/order/no_such_route': () => ok({}),
  });
  api.on('POST /api/order/delete_order', () => ok({ deleted: true }));
  // @ts-expect-error an unknown route
  api.on('POST /api/order/cancel_order', () => ok({ deleted: true }));
  // @ts-expect-error a wrong shape: `deleted` is `true`, not a string
  api.on('POST /api/order/delete_order', () => ok({ deleted: 'yes' }));
  // @ts-expect-error a wrong shape: a field the answer does not have
  api.on('GET /api/order/get_cart', () => ok({ lines: [], bogus: 1 }));
  // @ts-expect-error a wrong shape: a line's quantity is a number
  api.on('GET /api/order/get_cart', () => ok({ lines: [{ quantity: '2' }] }));
  // A refusal is any route's answer.
  api.on('POST /api/order/submit_order', () => ({ status: 409, msg: 'lines.0: out of stock' }));

  fakeByPath({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/goods/get_goods_page': () => ok({ list: [{ goods_id: 1, goods_name: 'Noor' }], total: 1 }),
    // @ts-expect-error an unknown path
    '/api/goods/no_such_page': ok({}),
    // @ts-expect-error a wrong shape: total is a number
    '/api/goods/search_page': ok({ list: [], total: 'many' }),
  });
}

export function theHandlers(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'types' }, (group) => {
    group.route('POST /api/order/delete_order', async ({ input, user }) => {
      input.order_id satisfies number;
      user.id satisfies number;
      return { deleted: true as const };
    });
    // @ts-expect-error an unknown route
    group.route('POST /api/order/no_such_route', async () => ({}));
    // @ts-expect-error the answer's shape is the contract's: `deleted` must be true
    group.route('POST /api/order/delete_order', async () => ({ deleted: false }));
    group.route('POST /api/order/delete_order', async ({ input }) => {
      // @ts-expect-error the request has no such field
      input.reason;
      return { deleted: true as const };
    });
  });
  routeGroup(app, ctx, { access: 'public', tag: 'types' }, (group) => {
    group.route('GET /api/config/get_colors', async ({ user }) => {
      // @ts-expect-error a public route has no signed-in user
      user.id;
      return [];
    });
  });
}
