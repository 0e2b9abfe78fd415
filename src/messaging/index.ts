import { type CallbackOptions, type Result, settle } from './callbacks';
import { Connection, ConnectionState, ConnectionStatus, publicStatus } from './connection';
import { CSTeam } from './cs';
import { badRequest, messagingError } from './errors';
import {
  type ConversationOptions,
  type ConversationsResult,
  type HistoryOptions,
  type IMEvent,
  IM_EVENT,
  IM_SCENE,
  type IdsOptions,
  Im,
  type ImEventHandler,
  ImListeners,
  type MarkAsReadOptions,
  MessageCreators,
  type MessagesOptions,
  type SendMessageOptions,
} from './im';
import { type AnyMessage, DTO_ID, MessageStatus } from './model';
import { ErrorCode, Scene } from './protocol';
import * as Text from './protocol/texts';
import {
  type ChannelOptions,
  type HereNowOptions,
  PubSub,
  type PubSubHistoryOptions,
  type PublishOptions,
  type SubscribeOptions,
  type SubscribePresenceOptions,
} from './pubsub';
import {
  isBlank,
  isPlainObject,
  validateConnectOptions,
  validateGoEasyOptions,
  validateId,
  validateIdArray,
} from './validate';

export type { MessagingError } from './errors';
export type { CallbackOptions, Result } from './callbacks';
export type {
  AnyMessage,
  AudioPayload,
  CsSessionStatus,
  FilePayload,
  ImagePayload,
  TextPayload,
  VideoPayload,
} from './model';
export { CSMessage, ConversationDTO, GroupMessage, Message, PrivateMessage, SystemMessage, User } from './model';
export type * from './im';
export type * from './pubsub';
export type * from './cs';
export type { MediaFile } from './validate';
export { ConnectionState, ConnectionStatus, ErrorCode, IM_EVENT, IM_SCENE, MessageStatus, Scene };

/** GoEasy's call media types (its RTC module, which Lensmate does not carry: see the porting guide). */
export const MEDIA_TYPE = { VIDEO: 'VIDEO', VOICE: 'VOICE' } as const;

/** GoEasy exports these option types as (empty) classes; apps may `extends` or `instanceof` them. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: GoEasy exports an empty class of this name; the interface is the shape
export class CallBackOptions {}
export interface CallBackOptions extends CallbackOptions {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: GoEasy exports an empty class of this name; the interface is the shape
export class AgentOnlineOptions extends CallBackOptions {}
export interface AgentOnlineOptions {
  teamData: Record<string, unknown>;
  agentData: Record<string, unknown>;
}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: GoEasy exports an empty class of this name; the interface is the shape
export class CustomerStatusOptions extends CallBackOptions {}
export interface CustomerStatusOptions {
  id: string;
}

export interface GoEasyOptions {
  host: string;
  appkey: string;
  modules: string[];
  forceTLS?: boolean;
  supportOldBrowser?: boolean;
  allowNotification?: boolean;
}

export interface ConnectOptions extends CallbackOptions<void> {
  id?: string | number;
  data?: Record<string, unknown>;
  otp?: string;
  wxmpId?: { appid: string; openid: string };
  onProgress?(attempts: number): void;
}

type StatusListener = (status: ConnectionStatus, state: ConnectionState) => void;

export interface BadgeOptions extends CallbackOptions<void> {
  badge: number;
}

/** A mark-as-read shortcut's options with its conversation; options that are not an object go through as given,
 *  so markAsRead answers "bad parameters". */
function markOptions(options: MarkAsReadOptions, id: string | undefined, type: 'private' | 'group'): MarkAsReadOptions {
  return isPlainObject(options) ? { ...(options as MarkAsReadOptions), id, type } : options;
}

export interface TopByIdOptions extends CallbackOptions<Result<string>> {
  userId?: string | number;
  groupId?: string | number;
  top?: boolean;
}

/** A conversation named by user or group id, as the by-id shortcuts take it, in the form topConversation takes. */
function byId(options: TopByIdOptions, type: 'private' | 'group', id: unknown): ConversationOptions {
  if (!isPlainObject(options)) return options as never;
  const name = DTO_ID[type];
  const conversation = { type, [name]: validateId(id, name) } as unknown as ConversationOptions['conversation'];
  return { ...options, conversation };
}

export class GoEasy {
  static readonly version = '2.8.3';
  static readonly IM_EVENT = IM_EVENT;
  static readonly IM_SCENE = IM_SCENE;
  static readonly MEDIA_TYPE = MEDIA_TYPE;
  static instance: GoEasy | null = null;

  readonly pubsub: PubSubApi;
  readonly im: ImApi;
  private readonly options: GoEasyOptions & { modules: Array<'PUBSUB' | 'IM'> };
  private readonly connection: Connection;
  private readonly pubsubModule: PubSub;
  private imModule: Im | null = null;
  /** @internal */
  readonly imListeners = new ImListeners();
  private connected = false;
  private anonymous = true;
  private readonly statusListeners = new Set<StatusListener>();
  private clickHandler: ((message: unknown) => void) | null = null;

  /** The app-wide client (one socket); `new GoEasy(options)` makes an independent one. */
  static getInstance(options: GoEasyOptions): GoEasy {
    if (!GoEasy.instance) GoEasy.instance = new GoEasy(options);
    return GoEasy.instance;
  }

  constructor(options: GoEasyOptions) {
    const valid = validateGoEasyOptions(options);
    this.options = { ...options, ...valid };
    this.connection = new Connection({
      host: valid.host,
      forceTLS: options.forceTLS,
      supportOldBrowser: options.supportOldBrowser,
    });
    this.connection.onStatus((state) => {
      const status = publicStatus(state);
      for (const listener of this.statusListeners) listener(status, state);
    });
    this.pubsubModule = new PubSub(
      () => this.connection,
      () => this.anonymous,
    );
    this.pubsubModule.attach(this.connection);
    // Registered once for the client's life and handed to whoever is connected now: a connect as another user
    // replaces the module (its caches, its handlers) instead of adding a second set beside the first.
    for (const event of Im.PUSHES) this.connection.onPush(event, (body) => this.imModule?.handlePush(event, body));
    this.connection.onDisconnected = () => {
      this.imModule?.connectionLost();
      this.imModule?.forgetTeams();
    };
    this.connection.onConnected = (state) => this.afterConnected(state);
    this.pubsub = new PubSubApi(this);
    this.im = new ImApi(this);
  }

  private afterConnected(state: ConnectionState): void {
    const im = this.imModule;
    // Agents: the teams they are online in and those teams' pending conversations, from the server, on every connect
    // (an app restart or a new device starts with none of them).
    im?.restoreAgent().catch(() => undefined);
    if (state === ConnectionState.CONNECTED) return;
    this.pubsubModule.resubscribe(state === ConnectionState.EXPIRED_RECONNECTED);
    im?.resync(state).catch(() => undefined);
  }

  /**
   * @internal Guards every module call: connect() first, and the module enabled (messaging.md §5: both answer
   * "Please call connect() first.").
   */
  module(name: 'PUBSUB'): PubSub;
  module(name: 'IM'): Im;
  module(name: 'PUBSUB' | 'IM'): PubSub | Im {
    if (!this.connected || !this.options.modules.includes(name)) throw badRequest(Text.CALL_CONNECT_FIRST);
    if (name === 'PUBSUB') return this.pubsubModule;
    if (!this.imModule) throw badRequest(Text.CALL_CONNECT_FIRST);
    return this.imModule;
  }

  /** @internal */
  socket(): Connection {
    return this.connection;
  }

  connect(options: ConnectOptions): Promise<void> {
    return settle(options, async () => {
      if (this.connection.isConnected() || this.connection.isConnecting()) {
        throw messagingError(ErrorCode.TIMEOUT, Text.ALREADY_CONNECTED);
      }
      const imEnabled = this.options.modules.includes('IM');
      validateConnectOptions(options, imEnabled);
      this.anonymous = isBlank(options.id);
      const userId = this.anonymous ? null : String(options.id);
      if (this.imModule && this.imModule.myId !== userId) {
        // Another user: nothing of the previous one (conversations, pending lists, live sessions) stays.
        this.imModule.reset();
        this.imModule = null;
      }
      if (imEnabled && userId !== null && !this.imModule) {
        this.imModule = new Im(() => this.connection, userId, this.imListeners);
      }
      this.connected = true;
      this.connection.onConnecting = (attempts) => options.onProgress?.(attempts);
      await this.connection.connect({
        appkey: this.options.appkey,
        userId,
        userData: JSON.stringify(options.data ?? {}),
        otp: options.otp,
        wxmpId: options.wxmpId,
        modules: this.options.modules.map((name) => name.toLowerCase()),
        allowNT: this.options.allowNotification === true,
      });
    });
  }

  disconnect(options?: CallbackOptions<void>): Promise<void> {
    return settle(options, async () => {
      await this.connection.disconnect();
      this.pubsubModule.reset();
      this.imModule?.reset();
    });
  }

  /** GoEasy's public status strings (`connect_failed`, `reconnected`, ...); the eight-state machine is internal. */
  getConnectionStatus(): ConnectionStatus {
    return publicStatus(this.connection.status);
  }

  /**
   * Lensmate's addition: every status change as it happens, with the internal state beside the public status
   * (`expired-reconnected` where the status says `reconnected`). Returns the function that stops listening.
   */
  onConnectionStatusChanged(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * The app icon's badge. GoEasy sets it only in a uni-app native app with notifications (iOS through the server);
   * a mini-program or a web page has no app badge, so the call does nothing there, as in GoEasy. A badge that is not
   * a non-negative integer fails with GoEasy's message.
   */
  setBadge(options: BadgeOptions): void {
    if (!Number.isInteger(options?.badge) || options.badge < 0) {
      (options?.onFailed as ((error: unknown) => void) | undefined)?.(Text.BADGE_INTEGER);
    }
  }

  /**
   * A tap on a push notification. Only uni-app native apps receive GoEasy's pushes; elsewhere GoEasy warns and keeps
   * no handler, and so does this SDK.
   */
  onClickNotification(handler: (message: unknown) => void): void {
    if (typeof handler !== 'function') throw new Error(Text.ARGUMENTS_FUNCTION);
    if (this.clickHandler) return;
    console.warn(Text.NOTIFICATION_UNSUPPORTED);
  }

  /** GoEasy's own check of the constructor's options (it runs in the constructor too). */
  validateOptions(options: GoEasyOptions): void {
    validateGoEasyOptions(options);
  }

  /** GoEasy's own check of connect()'s id and data (connect() runs it too). */
  confirmUserIdAndData(options: ConnectOptions): void {
    validateConnectOptions(options, this.options.modules.includes('IM'));
  }
}

/**
 * The options as the pub/sub module gets them: without their callbacks (the API object fires them), and always an
 * object (absent options are checked field by field, so the refusal names the missing field).
 */
function uncalled<T extends object>(options: T): T {
  return { ...options, onSuccess: undefined, onFailed: undefined };
}

export class PubSubApi {
  /** GoEasy's socket set-up hook: the SDK opens its one socket at connect(), so there is nothing to do here. */
  initialGoEasySocket(): void {}
  /** GoEasy clears its subscriptions before a new connect; the SDK clears them at disconnect(). */
  initialBeforeConnect(): void {}

  constructor(private readonly goeasy: GoEasy) {}
  private run<T>(options: CallbackOptions<T> | undefined, call: (module: PubSub) => Promise<T>): Promise<T> {
    return settle(options, () => call(this.goeasy.module('PUBSUB')));
  }
  subscribe(options: SubscribeOptions) {
    return this.run(options, (module) => module.subscribe(uncalled(options)));
  }
  unsubscribe(options: ChannelOptions) {
    return this.run(options, (module) => module.unsubscribe(uncalled(options)));
  }
  publish(options: PublishOptions) {
    return this.run(options, (module) => module.publish(uncalled(options)));
  }
  history(options: PubSubHistoryOptions) {
    return this.run(options, (module) => module.history(uncalled(options)));
  }
  subscribePresence(options: SubscribePresenceOptions) {
    return this.run(options, (module) => module.subscribePresence(uncalled(options)));
  }
  unsubscribePresence(options: ChannelOptions) {
    return this.run(options, (module) => module.unsubscribePresence(uncalled(options)));
  }
  hereNow(options: HereNowOptions) {
    return this.run(options, (module) => module.hereNow(uncalled(options)));
  }
}

export class ImApi extends MessageCreators {
  private readonly teams = new Map<string, CSTeam>();
  constructor(private readonly goeasy: GoEasy) {
    super(() => goeasy.module('IM'));
  }

  private run<T>(options: CallbackOptions<T> | undefined, call: (module: Im) => Promise<T>): Promise<T> {
    return settle(options, () => call(this.imModule()));
  }

  /**
   * Listeners may be added before connect(); they receive events once connected. The handler's parameter is the
   * event's payload (ImEventMap), so `im.on(IM_EVENT.GROUP_PRESENCE, (event) => event.groupOnlineCount)` type-checks.
   */
  on<E extends IMEvent>(event: E, listener: ImEventHandler<E>): void {
    this.goeasy.imListeners.on(event, listener);
  }
  off<E extends IMEvent>(event: E, listener: ImEventHandler<E>): void {
    this.goeasy.imListeners.off(event, listener);
  }

  /** GoEasy's hook after connect; the SDK does its after-connect work itself, so there is nothing left to run. */
  afterConnect(): void {}

  sendMessage(options: SendMessageOptions): Promise<AnyMessage> {
    return this.run(options, (im) => im.send(options));
  }
  history(options: HistoryOptions): Promise<Result<AnyMessage[]>> {
    return this.run(options, (im) => im.history(options));
  }
  latestConversations(options?: CallbackOptions<Result<ConversationsResult>>): Promise<Result<ConversationsResult>> {
    return this.run(options, (im) => im.latestConversations());
  }
  pendingConversations(options?: CallbackOptions<Result<ConversationsResult>>): Promise<Result<ConversationsResult>> {
    return this.run(options, (im) => im.pendingConversations());
  }
  markMessageAsRead(options: MarkAsReadOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.markAsRead(options));
  }
  markPrivateMessageAsRead(options: MarkAsReadOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.markAsRead(markOptions(options, options?.userId, 'private')));
  }
  markGroupMessageAsRead(options: MarkAsReadOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.markAsRead(markOptions(options, options?.groupId, 'group')));
  }
  recallMessage(options: MessagesOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.recall(options));
  }
  deleteMessage(options: MessagesOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.delete(options));
  }
  topConversation(options: ConversationOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.top(options));
  }
  removeConversation(options: ConversationOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.remove(options));
  }
  topPrivateConversation(options: TopByIdOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.top(byId(options, 'private', options?.userId)));
  }
  topGroupConversation(options: TopByIdOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.top(byId(options, 'group', options?.groupId)));
  }
  removePrivateConversation(options: TopByIdOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.remove(byId(options, 'private', options?.userId)));
  }
  removeGroupConversation(options: TopByIdOptions): Promise<Result<string>> {
    return this.run(options, (im) => im.remove(byId(options, 'group', options?.groupId)));
  }
  subscribeUserPresence(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.subscribePresence('User', validateIdArray(options?.userIds, 'userIds')));
  }
  unsubscribeUserPresence(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.unsubscribePresence('User', validateId(options?.userId, 'userId')));
  }
  hereNow(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.hereNow(options));
  }
  subscribeGroupPresence(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.subscribePresence('Group', validateIdArray(options?.groupIds, 'groupIds')));
  }
  unsubscribeGroupPresence(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.unsubscribePresence('Group', validateId(options?.groupId, 'groupId')));
  }
  subscribeGroup(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.subscribeGroup(options));
  }
  unsubscribeGroup(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.unsubscribeGroup(options));
  }
  groupHereNow(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) => im.groupHereNow(options));
  }
  groupOnlineCount(options: IdsOptions): Promise<Result<unknown>> {
    return this.run(options, (im) =>
      im.simple('imGroupOnlineCount', { groupId: validateId(options?.groupId, 'groupId') }),
    );
  }

  csteam(teamId: string): CSTeam {
    const id = validateId(teamId, 'teamId');
    let team = this.teams.get(id);
    if (!team) {
      team = new CSTeam(id, this.imModule, () => this.goeasy.socket());
      this.teams.set(id, team);
    }
    return team;
  }
}

/** GoEasy 2.8.3's names for the two module objects and the team object. */
export { ImApi as GoEasyIM, PubSubApi as GoEasyPubSub, CSTeam };

export default GoEasy;
