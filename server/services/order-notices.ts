/**
 * The shopper hears about their order's steps: an email through the mail adapter (services/mail.ts) when it ships,
 * is delivered, is refunded or expires unpaid, and a system message in their `orders` conversation when the
 * messaging server runs in this process. A notice that cannot be sent is logged; the step itself stands.
 */
import type { AppContext } from '../context';
import { fromCents } from '../http';

export type NoticeKind = 'shipped' | 'delivered' | 'refunded' | 'partially_refunded' | 'expired';

interface Notice {
  subject: string;
  text: string;
  title: string;
  body: string;
}

function wording(
  kind: NoticeKind,
  order: { order_sn: string; carrier: string | null; tracking_no: string | null },
  amount: string,
): Notice {
  const sn = order.order_sn;
  switch (kind) {
    case 'shipped':
      return {
        subject: `Your Lensmate order ${sn} has shipped`,
        text: `Your order ${sn} is on its way with ${order.carrier || 'the carrier'}, tracking number ${order.tracking_no}. You can follow it in the app, under My orders.`,
        title: 'Order shipped',
        body: `Order ${sn} is on its way`,
      };
    case 'delivered':
      return {
        subject: `Your Lensmate order ${sn} was delivered`,
        text: `Your order ${sn} was delivered. We hope you enjoy your glasses.`,
        title: 'Order delivered',
        body: `Order ${sn} was delivered`,
      };
    case 'refunded':
    case 'partially_refunded':
      return {
        subject: `We refunded ${amount} USD on your Lensmate order ${sn}`,
        text: `We refunded ${amount} USD on your order ${sn} to the way you paid. Your bank may take a few days to show it.`,
        title: 'Refund made',
        body: `We refunded ${amount} USD on order ${sn}`,
      };
    case 'expired':
      return {
        subject: `Your Lensmate order ${sn} was cancelled`,
        text: `Your order ${sn} was not paid in time and has been cancelled; the frames it held are back in the shop. You can order them again at any time.`,
        title: 'Order cancelled',
        body: `Order ${sn} was not paid in time`,
      };
  }
}

export async function notifyOrderStep(
  ctx: AppContext,
  orderId: number,
  kind: NoticeKind | 'cancelled' | 'paid',
  amountCents = 0,
): Promise<void> {
  if (kind === 'cancelled' || kind === 'paid') return;
  const order = await ctx.db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select(['orders.id', 'orders.user_id', 'orders.order_sn', 'orders.carrier', 'orders.tracking_no', 'users.email'])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (!order) return;
  const notice = wording(kind, order, fromCents(amountCents).toFixed(2));
  try {
    await ctx.mailer.send({ to: order.email, subject: notice.subject, text: notice.text });
  } catch (error) {
    console.warn(`order ${orderId}: the ${kind} email was not sent: ${(error as Error).message}`);
  }
  try {
    await ctx.messaging.sendSystemMessage({
      to: String(order.user_id),
      senderId: 'orders',
      senderData: { name: 'Lensmate orders' },
      type: `order_${kind}`,
      payload: { orderId: order.id, orderSn: order.order_sn, text: notice.body },
      notification: { title: notice.title, body: notice.body.slice(0, 50) },
    });
  } catch {
    // No messaging server in this process (the API alone, tests): the email is the notice.
  }
}
