/** The owner's order screens: every shopper's orders, found by status, date, order number or e-mail, and one in full. */
import { sql } from 'kysely';
import type { AdminOrder, AdminOrderDetail, Page } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import { ApiError, pageRows } from '../http';
import { NO_SUCH_ORDER, orderHistory } from './order-lifecycle';
import { toOrders } from './orders';
import { uploadUrlReader } from './uploads';

export async function adminOrderList(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/admin/order/list'>,
): Promise<Page<AdminOrder>> {
  let base = ctx.db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id');
  if (input.status) base = base.where('orders.status', '=', input.status);
  if (input.from !== undefined) base = base.where('orders.created_at', '>=', input.from);
  if (input.to !== undefined) base = base.where('orders.created_at', '<', input.to);
  const q = input.q?.trim();
  if (q) {
    const term = q.toLowerCase().replace(/[%_\\]/g, '');
    base = base.where((eb) =>
      eb.or([
        eb(sql<string>`lower(orders.order_sn)`, 'like', `${term}%`),
        eb(sql<string>`lower(users.email)`, 'like', `%${term}%`),
      ]),
    );
  }
  const { rows, total } = await pageRows(base, input, (query) =>
    query
      .selectAll('orders')
      .select('users.email as user_email')
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc'),
  );
  const orders = await toOrders(ctx.db, rows, uploadUrlReader(ctx.config, ctx.now));
  const list = orders.map((order, index) => ({
    ...order,
    user_id: rows[index].user_id,
    user_email: rows[index].user_email,
  }));
  return { list, total, page: input.page, page_size: input.page_size };
}

export async function adminOrderDetail(ctx: AppContext, orderId: number): Promise<AdminOrderDetail> {
  const row = await ctx.db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .selectAll('orders')
    .select('users.email as user_email')
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, NO_SUCH_ORDER);
  const [order] = await toOrders(ctx.db, [row], uploadUrlReader(ctx.config, ctx.now));
  return {
    order: { ...order, user_id: row.user_id, user_email: row.user_email },
    history: await orderHistory(ctx, orderId, true),
  };
}
