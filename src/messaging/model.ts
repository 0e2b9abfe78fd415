import { badRequest, messagingError } from './errors';
import { CsMessageType, type Scene } from './protocol';
import * as Limits from './protocol/limits';
import * as Text from './protocol/texts';

export const MessageStatus = {
  NEW: 'new',
  SENDING: 'sending',
  SUCCESS: 'success',
  FAIL: 'fail',
} as const;
export type MessageStatus = (typeof MessageStatus)[keyof typeof MessageStatus];

export { CsMessageType };

export type Data = Record<string, unknown>;

/** GoEasy's `User` (a class there too: `new User(id, data)` is how apps build an accept's customer). */
export class User {
  constructor(
    public id: string,
    public data?: Data,
  ) {}
}

export interface TextPayload {
  text: string;
}
export interface FilePayload {
  url: string;
  name: string;
  size: number;
  contentType: string;
}
export interface ImagePayload extends FilePayload {
  width: number;
  height: number;
  thumbnail: string;
}
export interface AudioPayload extends FilePayload {
  duration: number;
}
export interface VideoPayload {
  video: {
    name: string;
    url: string;
    width: number;
    height: number;
    contentType: string;
    size: number;
    duration: number;
  };
  thumbnail: { name: string; url: string; width: number; height: number; contentType: string };
}
export interface CsAcceptPayload {
  sessionStart: number;
}
export interface CsTransferPayload {
  sessionStart: number;
  transferTo: User;
}
export type Payload =
  | TextPayload
  | FilePayload
  | ImagePayload
  | AudioPayload
  | VideoPayload
  | CsAcceptPayload
  | CsTransferPayload
  | Data
  | string
  | number;

/** What the message was created with; kept until it is sent. */
export interface BuildOptions {
  to: { type: 'private' | 'group' | 'cs'; id: string; data: Data };
  notification?: Data;
  wxmpTemplateMsg?: Data;
  file?: unknown;
}

export abstract class Message {
  senderId = '';
  messageId = '';
  timestamp = 0;
  type = '';
  payload: Payload = {};
  status: MessageStatus = MessageStatus.NEW;
  recalled = false;
  recaller?: User;
  buildOptions?: BuildOptions;

  abstract scene(): Scene;

  /** new -> sending, once: a message that left `new` can never be sent again. */
  startSending(): void {
    if (this.status !== MessageStatus.NEW) throw messagingError(400, Text.SENT_ONCE);
    this.status = MessageStatus.SENDING;
  }

  succeed(timestamp: number): void {
    this.status = MessageStatus.SUCCESS;
    this.timestamp = timestamp;
    this.buildOptions = undefined;
  }

  fail(): void {
    this.status = MessageStatus.FAIL;
  }

  recall(recaller: User): void {
    this.recalled = true;
    this.recaller = recaller;
  }
}

export class PrivateMessage extends Message {
  receiverId = '';
  read = false;
  scene(): Scene {
    return 'private';
  }
}

export class GroupMessage extends Message {
  groupId = '';
  senderData: Data = {};
  scene(): Scene {
    return 'group';
  }
}

export class CSMessage extends Message {
  to = '';
  teamId = '';
  accepted = false;
  sessionId?: string;
  senderData: Data = {};
  scene(): Scene {
    return 'cs';
  }
  sentByCustomer(): boolean {
    return this.to === this.teamId;
  }
  customerId(): string {
    return this.sentByCustomer() ? this.senderId : this.to;
  }
}

/** A message the shop's server sent (order shipped, refund made): scene `system`, from a system sender to one user. */
export class SystemMessage extends Message {
  receiverId = '';
  senderData: Data = {};
  scene(): Scene {
    return 'system';
  }
}

export type AnyMessage = PrivateMessage | GroupMessage | CSMessage | SystemMessage;

/** A conversation as the app sees it, keyed from my side. */
export interface ConversationRef {
  scene: Scene;
  id: string;
  teamId?: string;
}

export function conversationKey(ref: ConversationRef): string {
  return ref.scene === 'cs' ? `cs#${ref.id}#${ref.teamId}` : `${ref.scene}#${ref.id}`;
}

export function conversationOf(message: Message, myId: string): ConversationRef {
  if (message instanceof PrivateMessage) {
    return { scene: 'private', id: message.senderId === myId ? message.receiverId : message.senderId };
  }
  if (message instanceof GroupMessage) return { scene: 'group', id: message.groupId };
  if (message instanceof SystemMessage) return { scene: 'system', id: message.senderId };
  const cs = message as CSMessage;
  const customer = cs.customerId();
  return { scene: 'cs', id: customer === myId ? cs.teamId : customer, teamId: cs.teamId };
}

/** Whether the message counts as someone else's from my side (for CS: the customer's, seen by an agent). */
export function isFromOthers(message: Message, myId: string): boolean {
  if (message instanceof CSMessage) {
    const customer = message.customerId();
    return customer === myId ? message.senderId !== myId : message.senderId === customer;
  }
  return message.senderId !== myId;
}

/** Read positions per user; a mark only ever moves forward. */
export class UserOffsets {
  private readonly offsets = new Map<string, number>();

  get(userId: string): number {
    return this.offsets.get(userId) ?? 0;
  }

  update(userId: string, offset: number): boolean {
    if (!(offset > this.get(userId))) return false;
    this.offsets.set(userId, offset);
    return true;
  }
}

export type CsStatusName = 'FREE' | 'PENDING' | 'ACCEPTED';

export interface CsSessionStatus {
  status: CsStatusName;
  start?: number;
  sessionId?: string;
  agent?: User;
}

export const FREE_STATUS: CsSessionStatus = { status: 'FREE' };

function sessionNewer(current: string | undefined, incoming: string | undefined): boolean {
  if (current === undefined || incoming === undefined) return false;
  const a = Number(current);
  const b = Number(incoming);
  return Number.isFinite(a) && Number.isFinite(b) ? a > b : current > incoming;
}

/** messaging.md §4: how one CS message moves the customer's session. */
export function nextCsStatus(current: CsSessionStatus, message: CSMessage): CsSessionStatus {
  if (current.status !== 'FREE' && sessionNewer(current.sessionId, message.sessionId)) return current;
  switch (message.type) {
    case CsMessageType.ACCEPT:
      return {
        status: 'ACCEPTED',
        start: (message.payload as CsAcceptPayload).sessionStart,
        sessionId: message.sessionId,
        agent: { id: message.senderId, data: message.senderData },
      };
    case CsMessageType.END:
      return { status: 'FREE' };
    case CsMessageType.TRANSFER: {
      const payload = message.payload as CsTransferPayload;
      return {
        status: 'ACCEPTED',
        start: payload.sessionStart,
        sessionId: message.sessionId,
        agent: payload.transferTo,
      };
    }
    default:
      if (current.status === 'FREE' && message.sentByCustomer()) {
        return { status: 'PENDING', start: message.timestamp, sessionId: message.sessionId };
      }
      return current;
  }
}

/** The last `capacity` ids seen, to drop pushes that arrive twice. */
export class RecentIds {
  private readonly order: string[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly capacity: number = Limits.RECENT_IDS) {}

  /** True when the id is new (and remembers it). */
  add(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    this.order.push(id);
    if (this.order.length > this.capacity) this.seen.delete(this.order.shift() as string);
    return true;
  }
}

/**
 * One entry of the conversation list. GoEasy exports it as an (empty) class; the SDK does too, and hands out plain
 * objects of this shape (the interface merges with the class).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: GoEasy exports an empty class of this name; the interface is the shape
export class ConversationDTO {}
export interface ConversationDTO {
  type: Scene;
  userId?: string;
  groupId?: string;
  /** CS: the customer (agent side) or the team (customer side); system: the system sender. */
  id?: string;
  teamId?: string;
  lastMessage: AnyMessage;
  unread: number;
  top: boolean;
  data: Data;
  ended?: boolean;
}

/** Where a ConversationDTO of each scene carries the conversation's id. */
export const DTO_ID = { private: 'userId', group: 'groupId', system: 'id', cs: 'id' } as const;

export class Conversation {
  top = false;
  data: Data = {};
  readonly offsets = new UserOffsets();
  /** Sorted by timestamp, at most Limits.CACHE_MESSAGES. */
  messages: AnyMessage[] = [];
  csStatus: CsSessionStatus = FREE_STATUS;
  constructor(
    readonly ref: ConversationRef,
    private readonly myId: string,
  ) {}

  get key(): string {
    return conversationKey(this.ref);
  }

  find(messageId: string): AnyMessage | undefined {
    return this.messages.find((message) => message.messageId === messageId);
  }

  /** Inserts or replaces by messageId, keeps timestamp order and the 200 newest. */
  save(message: AnyMessage): void {
    const existing = this.messages.findIndex((cached) => cached.messageId === message.messageId);
    if (existing >= 0) this.messages.splice(existing, 1);
    let index = this.messages.length;
    while (index > 0 && this.messages[index - 1].timestamp > message.timestamp) index--;
    this.messages.splice(index, 0, message);
    if (this.messages.length > Limits.CACHE_MESSAGES) this.messages = this.messages.slice(-Limits.CACHE_MESSAGES);
    if (message instanceof CSMessage) this.csStatus = nextCsStatus(this.csStatus, message);
    this.refreshRead();
  }

  remove(messageIds: string[]): void {
    this.messages = this.messages.filter((message) => !messageIds.includes(message.messageId));
  }

  removeByTimes(times: number[]): AnyMessage[] {
    const removed = this.messages.filter((message) => times.includes(message.timestamp));
    this.messages = this.messages.filter((message) => !times.includes(message.timestamp));
    return removed;
  }

  recallByTimes(times: number[], recaller: User): AnyMessage[] {
    const recalled = this.messages.filter((message) => times.includes(message.timestamp));
    recalled.forEach((message) => message.recall(recaller));
    return recalled;
  }

  get lastMessage(): AnyMessage | undefined {
    return this.messages[this.messages.length - 1];
  }

  /** Moves a user's read mark forward; true when it moved. */
  markRead(userId: string, offset: number): boolean {
    const moved = this.offsets.update(userId, offset);
    if (moved) this.refreshRead();
    return moved;
  }

  myOffset(): number {
    return this.offsets.get(this.myId);
  }

  unread(): number {
    const mine = this.myOffset();
    return this.messages.filter(
      (message) =>
        message.status === MessageStatus.SUCCESS &&
        !message.recalled &&
        message.timestamp > mine &&
        isFromOthers(message, this.myId),
    ).length;
  }

  /** A CS conversation ends with an end, or with a transfer to someone else. */
  ended(): boolean {
    const last = this.lastMessage;
    if (!(last instanceof CSMessage)) return false;
    if (last.type === CsMessageType.END) return true;
    return last.type === CsMessageType.TRANSFER && (last.payload as CsTransferPayload).transferTo.id !== this.myId;
  }

  private refreshRead(): void {
    if (this.ref.scene !== 'private') return;
    const peer = this.offsets.get(this.ref.id);
    const mine = this.myOffset();
    for (const message of this.messages) {
      if (!(message instanceof PrivateMessage) || message.status !== MessageStatus.SUCCESS) continue;
      message.read = message.senderId === this.myId ? peer >= message.timestamp : mine >= message.timestamp;
    }
  }

  toDTO(): ConversationDTO | null {
    const lastMessage = this.lastMessage;
    if (!lastMessage) return null;
    const dto: ConversationDTO = {
      type: this.ref.scene,
      lastMessage,
      unread: this.unread(),
      top: this.top,
      data: this.data,
    };
    dto[DTO_ID[this.ref.scene]] = this.ref.id;
    if (this.ref.scene === 'cs') {
      dto.teamId = this.ref.teamId;
      dto.ended = this.ended();
    }
    return dto;
  }
}

/** The conversation list: top ones first, then by last message, at most 200. */
export class ConversationStore {
  private readonly byKey = new Map<string, Conversation>();

  constructor(private readonly myId: string) {}

  get(ref: ConversationRef): Conversation | undefined {
    return this.byKey.get(conversationKey(ref));
  }

  ensure(ref: ConversationRef): Conversation {
    let conversation = this.get(ref);
    if (!conversation) {
      conversation = new Conversation(ref, this.myId);
      this.byKey.set(conversation.key, conversation);
    }
    return conversation;
  }

  delete(ref: ConversationRef): boolean {
    return this.byKey.delete(conversationKey(ref));
  }

  clear(): void {
    this.byKey.clear();
  }

  all(): Conversation[] {
    return Array.from(this.byKey.values());
  }

  sorted(): Conversation[] {
    const time = (conversation: Conversation) => conversation.lastMessage?.timestamp ?? 0;
    const list = this.all()
      .filter((conversation) => conversation.lastMessage)
      .sort((a, b) => Number(b.top) - Number(a.top) || time(b) - time(a));
    for (const dropped of list.slice(Limits.CONVERSATIONS)) this.byKey.delete(dropped.key);
    return list.slice(0, Limits.CONVERSATIONS);
  }

  /** `latestConversations` content: the list plus the unread total. */
  snapshot(): { unreadTotal: number; conversations: ConversationDTO[] } {
    const conversations = this.sorted()
      .map((conversation) => conversation.toDTO())
      .filter((dto): dto is ConversationDTO => dto !== null);
    return { unreadTotal: conversations.reduce((sum, dto) => sum + dto.unread, 0), conversations };
  }
}

export function assertSendable(message: unknown): asserts message is AnyMessage {
  if (!(message instanceof Message)) throw badRequest(Text.INVALID_MESSAGE);
  if (message.status !== MessageStatus.NEW) throw badRequest(Text.SENT_ONCE);
}
