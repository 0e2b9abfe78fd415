import { lensSummary } from '@/features/cart/describe';
import { STATUS_LABELS } from '@/features/order/api';
import { describeEye, describePd } from '@/features/prescription/api';
import type { AnyMessage, CSMessage, ConversationDTO, CsSessionStatus } from '@/messaging';
import { type Goods, type Order, SUPPORT_TEAM_ID } from '../../../types/api';

/**
 * Customer service (messaging.md §4 and §6): every shopper writes to one team, the shop's support team. Its
 * agents are the users an admin assigns in the admin area (/pages/admin/cs-agents); an agent joins the team by
 * going online in /pages/chat/chat2 (CS online with the agent's name and avatar).
 */
export { SUPPORT_TEAM_ID };
export const SUPPORT_TEAM_DATA = { name: 'Lensmate support', avatar: '' };

export const AGENTS_ONLY = 'Customer service is for Lensmate agents (administrators) only';
export const HISTORY_PAGE = 20;

/** The custom message types of the cards a shopper sends first. */
export const CARD_TYPE = { goods: 'goods', order: 'order' } as const;

export interface GoodsCard {
  goods_id: number;
  goods_name: string;
  goods_img: string;
  price: number;
}

export interface OrderCardLine {
  goods_id: number;
  goods_name: string;
  goods_img: string;
  color_name: string;
  quantity: number;
  lenses: string;
  line_total: number;
  prescription: { name: string; od: string; os: string; pd: string } | null;
}

export interface OrderCard {
  order_id: number;
  order_sn: string;
  status: string;
  total: number;
  created_at: number;
  lines: OrderCardLine[];
}

export type Card = { type: 'goods'; payload: GoodsCard } | { type: 'order'; payload: OrderCard };

export function goodsCard(goods: Goods): Card {
  return {
    type: 'goods',
    payload: {
      goods_id: goods.goods_id,
      goods_name: goods.goods_name,
      goods_img: goods.goods_img,
      price: goods.final_price,
    },
  };
}

/** What the agent needs of an order: its lines with lenses and the prescription in the optician's notation. */
export function orderCard(order: Order): Card {
  return {
    type: 'order',
    payload: {
      order_id: order.order_id,
      order_sn: order.order_sn,
      status: STATUS_LABELS[order.status] ?? order.status,
      total: order.total,
      created_at: order.created_at,
      lines: order.lines.map((line) => ({
        goods_id: line.goods_id,
        goods_name: line.goods_name,
        goods_img: line.goods_img,
        color_name: line.color_name,
        quantity: line.quantity,
        lenses: lensSummary(line.lens_detail).join(', '),
        line_total: line.line_total,
        prescription: line.prescription
          ? {
              name: line.prescription.name,
              od: describeEye(line.prescription.od),
              os: describeEye(line.prescription.os),
              pd: describePd(line.prescription.pd),
            }
          : null,
      })),
    },
  };
}

function nameOf(data: unknown, fallback: string): string {
  const name = (data as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name ? name : fallback;
}

export function agentName(status: CsSessionStatus): string {
  return nameOf(status.agent?.data, 'An agent');
}

/** The session line the shopper sees (messaging.md §4 CS session: FREE, PENDING, ACCEPTED). */
export function customerStatusText(status: CsSessionStatus, ended: boolean): string {
  if (status.status === 'PENDING') return 'Waiting for an agent…';
  if (status.status === 'ACCEPTED') return `${agentName(status)} is serving you`;
  return ended
    ? 'This conversation has ended. Send a message to start a new one.'
    : 'Send us a message: an agent will answer shortly.';
}

/** The session line an agent sees about a customer. */
export function agentStatusText(status: CsSessionStatus, me: string): string {
  if (status.status === 'PENDING') return 'Waiting for an agent to accept';
  if (status.status === 'ACCEPTED')
    return status.agent?.id === me ? 'You are serving this customer' : `${agentName(status)} is serving`;
  return 'Ended';
}

/** The notice an accept, transfer or end leaves in the conversation. */
export function systemNotice(message: CSMessage, me: string): string | null {
  const sender = nameOf(message.senderData, 'An agent');
  const payload = message.payload as { transferTo?: { id?: string; data?: unknown } };
  switch (message.type) {
    case 'CS_ACCEPT':
      return message.senderId === me ? 'You accepted the conversation' : `${sender} joined the conversation`;
    case 'CS_TRANSFER': {
      const target = payload.transferTo?.id === me ? 'you' : nameOf(payload.transferTo?.data, 'another agent');
      return `${message.senderId === me ? 'You' : sender} transferred the conversation to ${target}`;
    }
    case 'CS_END':
      return message.senderId === me ? 'You ended the conversation' : `${sender} ended the conversation`;
    default:
      return null;
  }
}

export function isSystem(message: AnyMessage): boolean {
  return message.type === 'CS_ACCEPT' || message.type === 'CS_TRANSFER' || message.type === 'CS_END';
}

/** Messages oldest first, each once (a live push and a history page may bring the same one). */
export function mergeMessages(list: AnyMessage[], more: AnyMessage[]): AnyMessage[] {
  const byId = new Map(list.map((message) => [message.messageId, message]));
  for (const message of more) byId.set(message.messageId, message);
  return Array.from(byId.values()).sort((a, b) => a.timestamp - b.timestamp);
}

export function customerName(data: unknown, customerId: string): string {
  return nameOf(data, `Customer ${customerId}`);
}

/**
 * The customer's name and avatar for a CS conversation: the conversation's data, else what the customer's own
 * last message carries (a conversation that arrived live has no data yet).
 */
export function customerOfConversation(dto: ConversationDTO): { name: string; avatar: string } {
  const id = String(dto.id);
  const last = dto.lastMessage as CSMessage | undefined;
  const data = Object.keys(dto.data ?? {}).length > 0 ? dto.data : last?.senderId === id ? (last.senderData ?? {}) : {};
  const avatar = (data as { avatar?: unknown }).avatar;
  return { name: customerName(data, id), avatar: typeof avatar === 'string' ? avatar : '' };
}
