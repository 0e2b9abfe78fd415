import { type CallbackOptions, type Result, createOrFail, ok, parseJson, randomId } from './callbacks';
import { type Connection, type ConnectionState, QUERY, SEND, WRITE } from './connection';
import { badRequest, messagingError } from './errors';
import { mediaPayload } from './media';
import {
  type AnyMessage,
  CSMessage,
  type Conversation,
  type ConversationDTO,
  type ConversationRef,
  ConversationStore,
  DTO_ID,
  type Data,
  GroupMessage,
  Message,
  MessageStatus,
  type Payload,
  PrivateMessage,
  RecentIds,
  SystemMessage,
  type User,
  assertSendable,
  conversationKey,
  conversationOf,
} from './model';
import { ErrorCode, SCENES, type WireMessage, type WirePresenceBody } from './protocol';
import * as Call from './protocol/calls';
import * as Push from './protocol/pushes';
import * as Text from './protocol/texts';
import { type Notification, type WxmpTemplateMsg, templateForWire } from './pubsub';
import {
  type ConversationTarget,
  type FileKind,
  type MediaFile,
  type Scene,
  isPlainObject,
  normalizeNotification,
  validateBatch,
  validateCallbackOptions,
  validateCreateOptions,
  validateCustom,
  validateDelete,
  validateFile,
  validateHistory,
  validateId,
  validateIdArray,
  validateMarkAsRead,
  validateNotification,
  validateRecall,
  validateText,
  validateTextPayload,
  validateTo,
  validateTop,
  validateWxmpTemplateMsg,
} from './validate';

const IM_EVENTS = [
  'PRIVATE_MESSAGE_RECEIVED',
  'GROUP_MESSAGE_RECEIVED',
  'SYSTEM_MESSAGE_RECEIVED',
  'CONVERSATIONS_UPDATED',
  'USER_PRESENCE',
  'GROUP_PRESENCE',
  'MESSAGE_DELETED',
  'MESSAGE_READ',
  'MESSAGE_RECALLED',
  'CS_MESSAGE_RECEIVED',
  'PENDING_CONVERSATIONS_UPDATED',
] as const;
export type IMEvent = (typeof IM_EVENTS)[number];
/** GoEasy's IM_EVENT: every event under its own name. */
export const IM_EVENT = IM_EVENTS.reduce(
  (events, name) => Object.assign(events, { [name]: name }),
  {} as { readonly [E in IMEvent]: E },
);

/** USER_PRESENCE: one per change, as GoEasy 2.8.3 fires them. */
export interface UserPresenceEvent {
  time: number;
  action: 'online' | 'offline';
  id: string;
  data: Data;
}
/** GROUP_PRESENCE: one per change, with the group's online count after it. */
export interface GroupPresenceEvent extends UserPresenceEvent {
  groupId: string;
  groupOnlineCount: number;
}

/** What each IM event hands its listeners: `im.on(event, handler)` infers the handler's parameter from this map. */
export interface ImEventMap {
  PRIVATE_MESSAGE_RECEIVED: PrivateMessage;
  GROUP_MESSAGE_RECEIVED: GroupMessage;
  SYSTEM_MESSAGE_RECEIVED: SystemMessage;
  CS_MESSAGE_RECEIVED: CSMessage;
  CONVERSATIONS_UPDATED: ConversationsResult;
  PENDING_CONVERSATIONS_UPDATED: ConversationsResult;
  USER_PRESENCE: UserPresenceEvent;
  GROUP_PRESENCE: GroupPresenceEvent;
  MESSAGE_DELETED: AnyMessage[];
  MESSAGE_READ: AnyMessage[];
  MESSAGE_RECALLED: AnyMessage[];
}
export type ImEventHandler<E extends IMEvent> = (payload: ImEventMap[E]) => void;

export const IM_SCENE = { PRIVATE: 'private', GROUP: 'group', SYSTEM: 'system', CS: 'cs' } as const;

export interface To {
  type: 'private' | 'group' | 'cs';
  id: string | number;
  data: Data;
}

export interface MessageCreateOptions extends CallbackOptions<AnyMessage> {
  to: To;
  notification?: Notification;
  wxmpTemplateMsg?: WxmpTemplateMsg;
}
export interface TextMessageCreateOptions extends MessageCreateOptions {
  text: string;
}
export interface FileMessageCreateOptions extends MessageCreateOptions {
  file: MediaFile;
  onProgress?(progress: number): void;
}
export interface CustomMessageCreateOptions extends MessageCreateOptions {
  type: string;
  payload: Payload;
}
export interface SendMessageOptions extends CallbackOptions<AnyMessage> {
  message: AnyMessage;
  accessToken?: string;
}
export interface HistoryOptions extends CallbackOptions<Result<AnyMessage[]>> {
  userId?: string;
  groupId?: string;
  type?: Scene;
  id?: string;
  lastTimestamp?: number;
  limit?: number;
}
export interface MarkAsReadOptions extends CallbackOptions<Result<string>> {
  id?: string;
  type?: Scene;
  userId?: string;
  groupId?: string;
}
export interface MessagesOptions extends CallbackOptions<Result<string>> {
  messages: AnyMessage[];
}
export interface ConversationOptions extends CallbackOptions<Result<string>> {
  conversation: ConversationDTO;
  top?: boolean;
}
export interface ConversationsResult {
  unreadTotal: number;
  conversations: ConversationDTO[];
}
export interface IdsOptions<T = Result<unknown>> extends CallbackOptions<T> {
  userIds?: Array<string | number>;
  groupIds?: Array<string | number>;
  userId?: string | number;
  groupId?: string | number;
  accessToken?: string;
}

export type { WireMessage };

type Listener = (payload: never) => void;

/** `im.on` / `im.off` listeners by event. They belong to the app, so they outlive connections and users. */
export class ImListeners extends Map<string, Set<Listener>> {
  on<E extends IMEvent>(event: E, listener: ImEventHandler<E>): void {
    if (typeof event !== 'string') throw badRequest(Text.EVENT_STRING);
    if (!(IM_EVENTS as readonly string[]).includes(event)) throw badRequest(Text.EVENT_UNKNOWN);
    if (typeof listener !== 'function') throw badRequest(Text.CALLBACK_FUNCTION);
    const set = this.get(event) || new Set();
    set.add(listener as Listener);
    this.set(event, set);
  }

  off<E extends IMEvent>(event: E, listener: ImEventHandler<E>): void {
    this.get(event)?.delete(listener as Listener);
  }

  fire<E extends IMEvent>(event: E, payload: ImEventMap[E]): void {
    for (const listener of Array.from(this.get(event) || [])) (listener as ImEventHandler<E>)(payload);
  }
}

interface SendSettings {
  notification?: Notification;
  wxmpTemplateMsg?: WxmpTemplateMsg;
  file?: MediaFile;
  kind?: FileKind;
  onProgress?(progress: number): void;
}

const messageSettings = new WeakMap<Message, SendSettings>();

function asUser(value: unknown): User | undefined {
  const parsed = parseJson<unknown>(value, undefined);
  if (!isPlainObject(parsed) || parsed.id === undefined) return undefined;
  return { id: String(parsed.id), data: parseJson<Data>(parsed.data, {}) };
}

/** A new message of a scene (private when it names none), to its receiver: the user, the group, or (CS) the team
 *  or the customer, in the team. */
function addressed(scene: Scene | undefined, receiver: string, teamId: string): AnyMessage {
  if (scene === 'group') return Object.assign(new GroupMessage(), { groupId: receiver });
  if (scene === 'cs') return Object.assign(new CSMessage(), { to: receiver, teamId });
  return Object.assign(scene === 'system' ? new SystemMessage() : new PrivateMessage(), { receiverId: receiver });
}

export function messageFromWire(wire: WireMessage): AnyMessage {
  const message = addressed(wire.t, String(wire.r), String(wire.tid));
  if (!(message instanceof PrivateMessage)) message.senderData = parseJson<Data>(wire.d, {});
  if (message instanceof CSMessage) {
    message.accepted = wire.accepted === true;
    if (wire.sessionId !== undefined && wire.sessionId !== null) message.sessionId = String(wire.sessionId);
  }
  message.senderId = String(wire.s);
  message.messageId = String(wire.i);
  message.timestamp = Number(wire.ts);
  message.type = wire.mt;
  const payload = parseJson<Payload>(wire.p, {});
  if (isPlainObject(payload) && isPlainObject(payload.transferTo)) {
    payload.transferTo = { ...payload.transferTo, data: parseJson<Data>(payload.transferTo.data, {}) };
  }
  message.payload = payload;
  message.status = MessageStatus.SUCCESS;
  if (wire.rc === true) {
    message.recalled = true;
    message.recaller = asUser(wire.recaller);
  }
  return message;
}

/** Fills in what a history answer leaves out: the scene, the receiver and the team. */
export function completeHistoryWire(wire: WireMessage, target: ConversationRef, myId: string): WireMessage {
  const complete: WireMessage = { ...wire, t: target.scene };
  if (target.scene === 'private') complete.r = wire.s === myId ? target.id : myId;
  else if (target.scene === 'group') complete.r = target.id;
  else if (target.scene === 'system') complete.r = myId;
  else {
    const teamId = String(target.teamId);
    const customer = target.id === teamId ? myId : target.id;
    complete.r = wire.s === customer ? teamId : customer;
    complete.tid = teamId;
  }
  return complete;
}

/** The other party of a private conversation named by a push. */
function peerOf(myId: string, ...candidates: Array<string | undefined>): string {
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    for (const part of String(candidate).split(':')) if (part && part !== myId) return part;
  }
  return myId;
}

export class Im {
  readonly store: ConversationStore;
  readonly pending: ConversationStore;
  private conversationsLoaded = false;
  private lostAt = 0;
  /** Messages already announced: after a reconnect the redelivered push and the resync can bring the same one. */
  private readonly announced = new RecentIds();
  /** Live-session watchers of agents, by team and customer. */
  readonly liveSessions = new Map<string, (message: CSMessage) => void>();
  /**
   * The presence subscriptions: the server keeps them with the socket, so they are made again after every
   * reconnect; they expire with disconnect().
   */
  private readonly watching = { User: new Set<string>(), Group: new Set<string>() };

  constructor(
    private readonly connection: () => Connection,
    readonly myId: string,
    /** Shared with the API object, so listeners registered before connect() receive events. */
    private readonly listeners: ImListeners,
  ) {
    this.store = new ConversationStore(myId);
    this.pending = new ConversationStore(myId);
  }

  /** The pushes the IM module handles. The client registers them once and hands them to the current user's module. */
  static readonly PUSHES = [
    Push.IM_MESSAGE,
    Push.IM_READ,
    Push.IM_RECALLED,
    Push.IM_DELETED,
    Push.USER_PRESENCE,
    Push.GROUP_PRESENCE,
    Push.CS_ONLINE_CHANGED,
  ] as const;

  handlePush(event: (typeof Im.PUSHES)[number], body: unknown): void {
    if (event === Push.IM_MESSAGE) this.onWireMessage(body as WireMessage);
    else if (event === Push.IM_READ) this.onRead(body as Record<string, unknown>);
    else if (event === Push.IM_RECALLED) this.onRecalled(body as Record<string, unknown>);
    else if (event === Push.IM_DELETED) this.onDeleted(body as Record<string, unknown>);
    else if (event === Push.CS_ONLINE_CHANGED) this.onCsOnlineChanged(body);
    else this.onPresence(event, body);
  }

  /** userPresence / groupPresence carry several changes in `c` (JSON); GoEasy fires one event per change. */
  private onPresence(event: typeof Push.USER_PRESENCE | typeof Push.GROUP_PRESENCE, body: unknown): void {
    const raw = isPlainObject(body) ? body.c : undefined;
    const content = parseJson<WirePresenceBody | undefined>(raw, undefined);
    if (!isPlainObject(content) || !Array.isArray(content.events)) return;
    for (const change of content.events) {
      const base: UserPresenceEvent = {
        time: Number(change.time),
        action: change.action,
        id: String(change.userId),
        data: parseJson<Data>(change.userData, {}),
      };
      if (event === Push.USER_PRESENCE) this.fire(IM_EVENT.USER_PRESENCE, base);
      else {
        this.fire(IM_EVENT.GROUP_PRESENCE, {
          time: base.time,
          action: base.action,
          groupOnlineCount: Number(content.userAmount),
          groupId: String(content.groupId),
          id: base.id,
          data: base.data,
        });
      }
    }
  }

  fire<E extends IMEvent>(event: E, payload: ImEventMap[E]): void {
    this.listeners.fire(event, payload);
  }

  // Customer service: the teams this agent is online in

  /** Teams this user is online in as an agent: known once CS_MY_TEAMS answered, kept by CS_ONLINE_CHANGED. */
  private teamIds: Set<string> | null = null;
  private teamQuery: Promise<Set<string>> | null = null;

  /** GoEasy's `myTeams()`: the teams, or the string it throws before they were queried. */
  myTeams(): Set<string> {
    if (!this.teamIds) throw Text.QUERY_TEAM_FIRST;
    return this.teamIds;
  }

  /** Asks the server once per connection which teams this user is online in (and loads their pending lists). */
  queryTeams(): Promise<Set<string>> {
    if (!this.teamQuery) {
      this.teamQuery = this.connection()
        .request(Call.CS_MY_TEAMS, {}, QUERY)
        .then((body) => {
          const teams = new Set(Array.isArray(body.content) ? body.content.map(String) : []);
          this.teamIds = teams;
          return teams;
        });
      this.teamQuery.catch(() => {
        this.teamQuery = null;
      });
    }
    return this.teamQuery;
  }

  /** After every connect: the teams again, and each team's pending conversations (an app restart included). */
  async restoreAgent(): Promise<void> {
    this.teamQuery = null;
    const teams = await this.queryTeams();
    // The server answers the pending conversations of every team the agent is online in, in one request. (Spread
    // first: the SDK's loose build turns `const [first] = teams` into `teams[0]`, which a Set does not have.)
    const [first] = [...teams];
    if (first !== undefined) await this.loadPending(first);
  }

  setOnline(teamId: string, online: boolean): void {
    if (!this.teamIds) this.teamIds = new Set();
    if (online) this.teamIds.add(teamId);
    else this.teamIds.delete(teamId);
  }

  private onCsOnlineChanged(body: unknown): void {
    if (!isPlainObject(body) || body.teamId === undefined) return;
    const teamId = String(body.teamId);
    const online = body.online === true;
    const was = this.teamIds?.has(teamId) ?? false;
    this.setOnline(teamId, online);
    if (online && !was) this.loadPending(teamId).catch(() => undefined);
    if (!online && was) this.dropPending(teamId);
  }

  /** On a disconnect the teams are unknown again until the next query (GoEasy's `onDisconnected`). */
  forgetTeams(): void {
    this.teamIds = null;
    this.teamQuery = null;
  }

  private fireConversations(): void {
    if (this.conversationsLoaded) this.fire(IM_EVENT.CONVERSATIONS_UPDATED, this.store.snapshot());
  }

  private firePending(): void {
    this.fire(IM_EVENT.PENDING_CONVERSATIONS_UPDATED, this.pending.snapshot());
  }

  /** An agent's CS conversation waits in the pending list until someone accepts it. */
  private isPendingForMe(message: AnyMessage): boolean {
    return message instanceof CSMessage && message.customerId() !== this.myId && !message.accepted;
  }

  /** Puts a message in its conversation, moving an accepted CS conversation out of the pending list. */
  private place(message: AnyMessage, senderData?: Data): ConversationRef {
    const ref = conversationOf(message, this.myId);
    // The other party's data names the conversation: the peer, the system sender, or (agent side) the customer.
    const named = (conversation: Conversation) => {
      const fromOther =
        ((ref.scene === 'private' || ref.scene === 'system') && message.senderId !== this.myId) ||
        (ref.scene === 'cs' && message.senderId === ref.id && ref.id !== ref.teamId);
      if (senderData && fromOther && Object.keys(conversation.data).length === 0) conversation.data = senderData;
    };
    if (this.isPendingForMe(message)) {
      const conversation = this.pending.ensure(ref);
      named(conversation);
      conversation.save(message);
      this.firePending();
      return ref;
    }
    const waiting = this.pending.get(ref);
    const conversation = this.store.ensure(ref);
    named(conversation);
    if (waiting) {
      this.pending.delete(ref);
      if (Object.keys(conversation.data).length === 0) conversation.data = waiting.data;
      waiting.messages.forEach((earlier) => conversation.save(earlier));
      this.firePending();
    }
    conversation.save(message);
    return ref;
  }

  /** A CS message this agent produced (accept, end, transfer), as answered by the server. */
  adoptOwnMessage(message: AnyMessage, customerData?: Data): void {
    this.notifyLive(message);
    const ref = this.place(message);
    const conversation = this.store.get(ref);
    if (conversation && customerData && Object.keys(conversation.data).length === 0) conversation.data = customerData;
    this.fireConversations();
  }

  private onWireMessage(wire: WireMessage): void {
    const message = messageFromWire(wire);
    this.place(message, parseJson<Data>(wire.d, {}));
    this.announce(message, true);
    this.fireConversations();
  }

  /** An agent watching this customer's live session sees every message of it, their own included. */
  private notifyLive(message: AnyMessage): void {
    if (message instanceof CSMessage) this.liveSessions.get(`${message.teamId}#${message.customerId()}`)?.(message);
  }

  private refFromPush(
    scene: Scene,
    conversationId: string,
    actorId: string | undefined,
    teamId?: unknown,
  ): ConversationRef {
    if (scene === 'private') return { scene, id: peerOf(this.myId, actorId, conversationId) };
    if (scene === 'cs') return { scene, id: conversationId, teamId: String(teamId ?? conversationId) };
    return { scene, id: conversationId };
  }

  private onRead(body: Record<string, unknown>): void {
    const scene = body.scene as Scene;
    const markerId = String(body.markerId);
    const targetId = String(body.targetId);
    let ref = this.refFromPush(scene, targetId, markerId, body.teamId);
    if (scene === 'cs' && markerId !== this.myId) {
      const teamId = String(body.teamId);
      ref = { scene, id: targetId === teamId ? markerId : teamId, teamId };
    }
    const conversation = this.store.get(ref) || this.pending.get(ref);
    if (!conversation || !conversation.markRead(markerId, Number(body.time))) return;
    const messages = conversation.messages.filter(
      (message) => message.senderId === this.myId && message.timestamp <= Number(body.time),
    );
    this.fire(IM_EVENT.MESSAGE_READ, messages);
    this.fireConversations();
  }

  private onRecalled(body: Record<string, unknown>): void {
    const recaller = asUser(body.recaller) || { id: String(body.recaller) };
    const ref = this.refFromPush(body.scene as Scene, String(body.conversationId), recaller.id, body.teamId);
    const conversation = this.store.get(ref);
    if (!conversation) return;
    const recalled = conversation.recallByTimes((body.times as number[]) ?? [], recaller);
    if (recalled.length === 0) return;
    this.fire(IM_EVENT.MESSAGE_RECALLED, recalled);
    this.fireConversations();
  }

  private onDeleted(body: Record<string, unknown>): void {
    const deleter = body.deleterId === undefined ? undefined : String(body.deleterId);
    const ref = this.refFromPush(body.scene as Scene, String(body.conversationId), deleter, body.teamId);
    const conversation = this.store.get(ref);
    if (!conversation) return;
    const deleted = conversation.removeByTimes((body.times as number[]) ?? []);
    if (deleted.length === 0) return;
    this.fire(IM_EVENT.MESSAGE_DELETED, deleted);
    this.fireConversations();
  }

  // Creating messages

  private create(
    options: unknown,
    type: string,
    payload: Payload,
    settings: SendSettings,
    teamId?: string,
  ): AnyMessage {
    validateCreateOptions(options);
    const to = validateTo(options.to, this.myId);
    if (options.notification !== undefined) validateNotification(options.notification);
    if (options.wxmpTemplateMsg !== undefined) validateWxmpTemplateMsg(options.wxmpTemplateMsg);
    const message = addressed(to.type, to.id, teamId ?? to.id);
    // An agent's message (sent through a team) belongs to a session the agent accepted.
    if (message instanceof CSMessage) message.accepted = teamId !== undefined;
    message.senderId = this.myId;
    message.messageId = randomId();
    message.timestamp = Date.now();
    message.type = type;
    message.payload = payload;
    message.buildOptions = {
      to: { type: to.type, id: to.id, data: to.data },
      notification: options.notification as Data | undefined,
      wxmpTemplateMsg: options.wxmpTemplateMsg as Data | undefined,
    };
    messageSettings.set(message, {
      ...settings,
      notification: options.notification as Notification | undefined,
      wxmpTemplateMsg: options.wxmpTemplateMsg as WxmpTemplateMsg | undefined,
    });
    return message;
  }

  createText(options: TextMessageCreateOptions, teamId?: string): AnyMessage {
    validateCreateOptions(options);
    const payload = { text: validateText(options.text) };
    validateTextPayload(payload);
    return this.create(options, 'text', payload, {}, teamId);
  }

  createFile(kind: FileKind, options: FileMessageCreateOptions, teamId?: string): AnyMessage {
    validateCreateOptions(options);
    const file = validateFile(options.file, kind);
    const payload = {
      name: file.name ?? '',
      size: file.size,
      url: file.path ?? file.tempFilePath ?? '',
      contentType: file.type ?? '',
    };
    return this.create(options, kind, payload, { file, kind, onProgress: options.onProgress }, teamId);
  }

  createCustom(options: CustomMessageCreateOptions, teamId?: string): AnyMessage {
    validateCreateOptions(options);
    validateCustom(options.type, options.payload);
    return this.create(options, options.type, options.payload, {}, teamId);
  }

  // Sending

  async send(options: SendMessageOptions): Promise<AnyMessage> {
    validateCallbackOptions(options);
    const message = options.message;
    assertSendable(message);
    const settings = messageSettings.get(message) || {};
    const target = message.buildOptions?.to;
    if (!target) throw badRequest(Text.INVALID_MESSAGE);
    const connection = this.connection();
    if (connection.status === 'disconnected') throw messagingError(ErrorCode.NOT_CONNECTED, Text.CONNECT_FIRST);
    message.startSending();
    const ref = this.place(message);
    const conversation = this.store.get(ref) || this.pending.get(ref);
    if (conversation && Object.keys(conversation.data).length === 0) conversation.data = target.data;
    this.fireConversations();
    try {
      if (settings.file && settings.kind) {
        message.payload = await mediaPayload(connection, settings.kind, settings.file, settings.onProgress);
      }
      const params: Record<string, unknown> = {
        mt: message.type,
        to: target.id,
        d: JSON.stringify(target.data ?? {}),
        p: JSON.stringify(message.payload),
        t: target.type,
        guid: message.messageId,
      };
      if (message instanceof CSMessage) params.tid = message.teamId;
      if (settings.notification) params.nt = normalizeNotification(settings.notification);
      if (options.accessToken) params.at = options.accessToken;
      if (settings.wxmpTemplateMsg) params.wxmpTemplateMsg = templateForWire(settings.wxmpTemplateMsg);
      const body = await connection.request(Call.PUBLISH_IM, params, SEND);
      const content = isPlainObject(body.content) ? body.content : {};
      if (message instanceof CSMessage && message.customerId() !== this.myId && content.sessionId !== undefined) {
        message.sessionId = String(content.sessionId);
      }
      message.succeed(Number(content.timestamp) || message.timestamp);
      messageSettings.delete(message);
      this.place(message);
      this.notifyLive(message);
      this.fireConversations();
      return message;
    } catch (error) {
      message.fail();
      this.fireConversations();
      throw error;
    }
  }

  // Conversations

  private applyOffsets(ref: ConversationRef, offsets: unknown, store = this.store): void {
    const conversation = store.get(ref);
    if (!conversation || !Array.isArray(offsets)) return;
    for (const entry of offsets as Array<{ userId: string; offset: number }>) {
      conversation.markRead(String(entry.userId), Number(entry.offset));
    }
  }

  async loadConversations(): Promise<void> {
    const body = await this.connection().request(Call.LAST_CONVERSATIONS, {}, QUERY);
    const list = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
    for (const entry of list) {
      if (!isPlainObject(entry.lmsg)) continue;
      const message = messageFromWire({ ...(entry.lmsg as unknown as WireMessage), t: entry.t as Scene });
      if (this.isPendingForMe(message)) continue;
      const ref = conversationOf(message, this.myId);
      const conversation = this.store.ensure(ref);
      conversation.top = entry.top === true;
      conversation.data = parseJson<Data>(entry.d, {});
      if (!conversation.find(message.messageId)) conversation.save(message);
      this.applyOffsets(ref, entry.userOffsets);
    }
    this.conversationsLoaded = true;
  }

  async latestConversations(): Promise<Result<ConversationsResult>> {
    if (!this.conversationsLoaded) await this.loadConversations();
    return ok(this.store.snapshot());
  }

  async pendingConversations(): Promise<Result<ConversationsResult>> {
    return ok(this.pending.snapshot());
  }

  /** Agent side: the CS conversations of a team that nobody accepted yet. */
  async loadPending(teamId: string): Promise<void> {
    const body = await this.connection().request(Call.CS_PENDING_CONVERSATION, { teamId }, QUERY);
    const list = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
    // The answer is the whole pending list of the agent's online teams: what it leaves out was taken meanwhile.
    const answered = new Set<string>();
    for (const entry of list) {
      if (!isPlainObject(entry.lastMessage)) continue;
      const message = messageFromWire({ ...(entry.lastMessage as unknown as WireMessage), t: 'cs' });
      const ref = conversationOf(message, this.myId);
      answered.add(conversationKey(ref));
      if (this.store.get(ref)) continue;
      const conversation = this.pending.ensure(ref);
      conversation.data = parseJson<Data>(entry.customerData, {});
      conversation.save(message);
      this.applyOffsets(ref, entry.userOffsets, this.pending);
    }
    for (const conversation of this.pending.all()) {
      if (!answered.has(conversation.key) && this.teamIds?.has(String(conversation.ref.teamId))) {
        this.pending.delete(conversation.ref);
      }
    }
    this.firePending();
  }

  dropPending(teamId: string): void {
    for (const conversation of this.pending.all())
      if (conversation.ref.teamId === teamId) this.pending.delete(conversation.ref);
    this.firePending();
  }

  private refOfDTO(conversation: unknown): ConversationRef {
    if (!isPlainObject(conversation)) throw badRequest(Text.INCORRECT_CONVERSATION);
    const scene = conversation.type as Scene;
    if (!SCENES.includes(scene)) throw badRequest(Text.INCORRECT_CONVERSATION);
    const ref: ConversationRef = { scene, id: String(conversation[DTO_ID[scene]]) };
    if (scene === 'cs') ref.teamId = String(conversation.teamId);
    return ref;
  }

  private wireConversation(ref: ConversationRef): Record<string, unknown> {
    return { type: ref.scene, targetId: ref.id, teamId: ref.teamId };
  }

  async top(options: ConversationOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const top = validateTop(options.top);
    const ref = this.refOfDTO(options.conversation);
    if (this.pending.get(ref)) throw badRequest(Text.PENDING_TOP_REMOVE);
    const conversation = this.store.get(ref);
    if (!conversation) throw badRequest(Text.NO_CONVERSATION);
    await this.connection().request(Call.TOP_CONVERSATION, { ...this.wireConversation(ref), top }, WRITE);
    conversation.top = top;
    this.fireConversations();
    return ok('ok');
  }

  async remove(options: ConversationOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const ref = this.refOfDTO(options.conversation);
    if (this.pending.get(ref)) throw badRequest(Text.PENDING_TOP_REMOVE);
    const conversation = this.store.get(ref);
    if (!conversation) throw badRequest(Text.NO_CONVERSATION);
    if (ref.scene === 'cs' && !conversation.ended()) throw badRequest(Text.CS_REMOVE_BEFORE_END);
    await this.connection().request(Call.REMOVE_CONVERSATION, this.wireConversation(ref), WRITE);
    this.store.delete(ref);
    this.fireConversations();
    return ok('ok');
  }

  // History and read marks

  private refOfTarget(target: ConversationTarget, teamId?: string): ConversationRef {
    if (target.scene !== 'cs') return { scene: target.scene, id: target.id };
    return { scene: 'cs', id: target.id, teamId: teamId ?? target.id };
  }

  async history(options: HistoryOptions, teamId?: string): Promise<Result<AnyMessage[]>> {
    const query = validateHistory(options);
    const ref = this.refOfTarget(query, teamId);
    const body = await this.connection().request(
      Call.IM_HISTORY,
      { id: query.id, scene: query.scene, lastTimestamp: query.lastTimestamp, limit: query.limit, teamId: ref.teamId },
      QUERY,
    );
    const content = isPlainObject(body.content) ? body.content : {};
    const wires = Array.isArray(content.messages) ? (content.messages as WireMessage[]) : [];
    const messages = wires
      .map((wire) => messageFromWire(completeHistoryWire(wire, ref, this.myId)))
      .sort((a, b) => a.timestamp - b.timestamp);
    const store = this.pending.get(ref) ? this.pending : this.store;
    const conversation = messages.length > 0 ? store.ensure(ref) : store.get(ref);
    const merged = messages.map((message) => {
      const cached = conversation?.find(message.messageId);
      if (cached) return cached;
      conversation?.save(message);
      return message;
    });
    this.applyOffsets(ref, content.userOffsets, store);
    return ok(merged);
  }

  async markAsRead(options: MarkAsReadOptions, teamId?: string): Promise<Result<string>> {
    const target = validateMarkAsRead(options);
    const ref = this.refOfTarget(target, teamId);
    const conversation = this.store.get(ref) || this.pending.get(ref);
    const newest = conversation?.messages.filter((message) => message.status === MessageStatus.SUCCESS).pop();
    if (!conversation || !newest || newest.timestamp <= conversation.myOffset()) return ok('ok');
    await this.connection().request(
      Call.IM_MARK_AS_READ,
      { id: ref.id, scene: ref.scene, lastTimestamp: newest.timestamp, teamId: ref.teamId },
      WRITE,
    );
    conversation.markRead(this.myId, newest.timestamp);
    this.fireConversations();
    return ok('ok');
  }

  // Recall and delete

  private batch(messages: unknown) {
    return validateBatch(messages, (item) => {
      if (!(item instanceof Message)) return null;
      const message = item as AnyMessage;
      return {
        messageId: message.messageId,
        senderId: message.senderId,
        status: message.status,
        recalled: message.recalled,
        scene: message.scene(),
        conversationKey: conversationKey(conversationOf(message, this.myId)),
      };
    });
  }

  async recall(options: MessagesOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const batch = this.batch(options.messages);
    validateRecall(batch, this.myId);
    const messages = options.messages;
    const ref = conversationOf(messages[0], this.myId);
    await this.connection().request(
      Call.IM_RECALL,
      { scene: ref.scene, targetId: ref.id, times: messages.map((message) => message.timestamp) },
      WRITE,
    );
    const me: User = { id: this.myId };
    messages.forEach((message) => message.recall(me));
    const conversation = this.store.get(ref);
    conversation?.recallByTimes(
      messages.map((message) => message.timestamp),
      me,
    );
    this.fire(IM_EVENT.MESSAGE_RECALLED, messages);
    this.fireConversations();
    return ok('ok');
  }

  async delete(options: MessagesOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const batch = this.batch(options.messages);
    validateDelete(batch);
    const messages = options.messages;
    const ref = conversationOf(messages[0], this.myId);
    const conversation = this.store.get(ref);
    const onServer = messages.filter((message) => message.status === MessageStatus.SUCCESS);
    const local = conversation ? messages.filter((message) => conversation.find(message.messageId)) : [];
    if (onServer.length === 0 && local.length === 0) throw badRequest(Text.NOTHING_TO_DELETE);
    if (onServer.length > 0) {
      await this.connection().request(
        Call.IM_DELETE,
        { scene: ref.scene, targetId: ref.id, times: onServer.map((message) => message.timestamp) },
        WRITE,
      );
    }
    conversation?.remove(messages.map((message) => message.messageId));
    this.fireConversations();
    return ok('ok');
  }

  // Groups and presence

  async simple(event: string, params: Record<string, unknown>, fallback?: string): Promise<Result<unknown>> {
    try {
      const body = await this.connection().request(event, params, QUERY);
      return ok(body.content);
    } catch (error) {
      const failure = error as { code: number; content?: string };
      if (fallback && !failure.content) throw messagingError(failure.code, fallback);
      throw error;
    }
  }

  async subscribePresence(kind: 'User' | 'Group', ids: string[]): Promise<Result<unknown>> {
    const result = await this.simple(`subscribe${kind}Presence`, { [`${kind.toLowerCase()}Ids`]: ids });
    for (const id of ids) this.watching[kind].add(id);
    return result;
  }

  async unsubscribePresence(kind: 'User' | 'Group', id: string): Promise<Result<unknown>> {
    const params = { [`${kind.toLowerCase()}Id`]: id };
    const result = await this.simple(`unsubscribe${kind}Presence`, params, Text.UNSUBSCRIBE_PRESENCE_FAILED);
    this.watching[kind].delete(id);
    return result;
  }

  subscribeGroup(options: IdsOptions): Promise<Result<unknown>> {
    validateCallbackOptions(options);
    const groupIds = validateIdArray(options.groupIds, 'groupIds');
    return this.simple(Call.SUBSCRIBE_GROUPS, { groupIds, at: options.accessToken }, Text.SUBSCRIBE_GROUP_FAILED);
  }

  unsubscribeGroup(options: IdsOptions): Promise<Result<unknown>> {
    validateCallbackOptions(options);
    const groupId = validateId(options.groupId, 'groupId');
    return this.simple(Call.UNSUBSCRIBE_GROUP, { groupId }, Text.UNSUBSCRIBE_GROUP_FAILED);
  }

  async groupHereNow(options: IdsOptions): Promise<Result<unknown>> {
    validateCallbackOptions(options);
    const groupId = validateId(options.groupId, 'groupId');
    const result = await this.simple(Call.IM_GROUP_HERE_NOW, { groupId }, Text.GROUP_HERE_NOW_FAILED);
    return ok(this.members(result.content));
  }

  async hereNow(options: IdsOptions): Promise<Result<unknown>> {
    validateCallbackOptions(options);
    const userIds = validateIdArray(options.userIds, 'userIds');
    const result = await this.simple(Call.IM_HERE_NOW, { userIds });
    return ok(this.members(result.content));
  }

  private members(content: unknown): Array<{ id: string; data: Data }> {
    if (!Array.isArray(content)) return [];
    return content.map((member: Record<string, unknown>) => ({
      id: String(member.userId ?? member.id),
      data: parseJson<Data>(member.userData ?? member.data, {}),
    }));
  }

  /** Called when the socket drops: remembered so the resync asks for what changed since. */
  connectionLost(): void {
    if (this.lostAt === 0) this.lostAt = Date.now();
  }

  /** After a reconnect: what changed in every cached conversation, and the newest messages of each. */
  async resync(status: ConnectionState): Promise<void> {
    if (status === 'connected') return;
    const after = this.lostAt;
    this.lostAt = 0;
    const connection = this.connection();
    for (const kind of ['User', 'Group'] as const) {
      const ids = [...this.watching[kind]];
      if (ids.length) this.subscribePresence(kind, ids).catch(() => undefined);
    }
    for (const conversation of [...this.store.all(), ...this.pending.all()]) {
      const ref = conversation.ref;
      const minimum = conversation.messages[0]?.timestamp ?? 0;
      try {
        const change = await connection.request(
          Call.IM_HISTORY_CHANGE,
          { scene: ref.scene, id: ref.id, after, min: minimum, teamId: ref.teamId },
          QUERY,
        );
        const content = isPlainObject(change.content) ? change.content : {};
        this.applyOffsets(ref, content.userOffsets, this.store.get(ref) ? this.store : this.pending);
        const deleted = Array.isArray(content.deletedMessageTimes)
          ? conversation.removeByTimes(content.deletedMessageTimes as number[])
          : [];
        if (deleted.length) this.fire(IM_EVENT.MESSAGE_DELETED, deleted);
        const recalls = (
          Array.isArray(content.recalledMessages) ? content.recalledMessages : [content.recalledMessages]
        ).filter(isPlainObject) as Array<{ recaller: unknown; times: number[] }>;
        for (const recall of recalls) {
          const recaller = asUser(recall.recaller) || { id: String(recall.recaller) };
          const recalled = conversation.recallByTimes(recall.times ?? [], recaller);
          if (recalled.length) this.fire(IM_EVENT.MESSAGE_RECALLED, recalled);
        }
        const known = new Set(conversation.messages.map((message) => message.messageId));
        const latest = await this.history(
          ref.scene === 'cs' ? { type: 'cs', id: ref.id } : { type: ref.scene, id: ref.id },
          ref.teamId,
        );
        for (const message of latest.content) if (!known.has(message.messageId)) this.announce(message);
      } catch {
        // A conversation that cannot be resynced now is resynced on the next reconnect.
        this.lostAt = this.lostAt || after;
      }
    }
    if (this.conversationsLoaded) await this.loadConversations().catch(() => undefined);
    this.fireConversations();
  }

  /**
   * Hands a received message to the app once (after a reconnect the redelivered push and the resync can both bring
   * it); a pushed CS message also reaches the agent watching that customer's live session.
   */
  private announce(message: AnyMessage, pushed = false): void {
    if (!this.announced.add(message.messageId)) return;
    if (pushed) this.notifyLive(message);
    // PRIVATE_MESSAGE_RECEIVED, GROUP_…, SYSTEM_… or CS_…: the event's name spells the message's scene.
    this.fire(`${message.scene().toUpperCase() as Uppercase<Scene>}_MESSAGE_RECEIVED`, message);
  }

  reset(): void {
    this.forgetTeams();
    this.store.clear();
    this.pending.clear();
    this.conversationsLoaded = false;
    this.liveSessions.clear();
    this.watching.User.clear();
    this.watching.Group.clear();
  }
}

/**
 * The create*Message calls, as `im` has them and as a team has them (`im.csteam(id)`, whose messages go to the team).
 */
export class MessageCreators {
  constructor(
    /** The IM module of whoever is connected now (throws before connect()). */
    protected readonly imModule: () => Im,
    private readonly teamId?: string,
  ) {}

  createTextMessage(options: TextMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createText(options, this.teamId));
  }
  createImageMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createFile('image', options, this.teamId));
  }
  createFileMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createFile('file', options, this.teamId));
  }
  createAudioMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createFile('audio', options, this.teamId));
  }
  createVideoMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createFile('video', options, this.teamId));
  }
  createCustomMessage(options: CustomMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.imModule().createCustom(options, this.teamId));
  }
}
