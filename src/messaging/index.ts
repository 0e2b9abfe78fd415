import { type CallbackOptions, type Result, settle } from './callbacks';
import { Connection, ConnectionStatus } from './connection';
import { CSTeam } from './cs';
import { ErrorCode, ErrorText, type MessagingError, badRequest, messagingError, toMessagingError } from './errors';
import {
  type ConversationOptions,
  type ConversationsResult,
  type CustomMessageCreateOptions,
  type FileMessageCreateOptions,
  type HistoryOptions,
  type IMEvent,
  IM_EVENT,
  IM_SCENE,
  type IdsOptions,
  Im,
  ImListeners,
  type MarkAsReadOptions,
  type MessagesOptions,
  type SendMessageOptions,
  type TextMessageCreateOptions,
} from './im';
import { type AnyMessage, MessageStatus } from './model';
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
  ConversationDTO,
  FilePayload,
  ImagePayload,
  TextPayload,
  User,
  VideoPayload,
} from './model';
export { CSMessage, GroupMessage, Message, PrivateMessage } from './model';
export type * from './im';
export type * from './pubsub';
export type * from './cs';
export type { MediaFile } from './validate';
export { ConnectionStatus, ErrorCode, IM_EVENT, IM_SCENE, MessageStatus };

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

type StatusListener = (status: ConnectionStatus) => void;

/** A mark-as-read shortcut's options with its conversation; options that are not an object go through as given,
 *  so markAsRead answers "bad parameters". */
function markOptions(options: MarkAsReadOptions, id: string | undefined, type: 'private' | 'group'): MarkAsReadOptions {
  return isPlainObject(options) ? { ...(options as MarkAsReadOptions), id, type } : options;
}

/** Throws for the sync `create*Message` calls, or hands the error to onFailed when there is one. */
function createOrFail<T>(options: unknown, create: () => T): T {
  try {
    return create();
  } catch (error) {
    const failure = toMessagingError(error);
    const onFailed = (options as { onFailed?: (error: MessagingError) => void } | undefined)?.onFailed;
    if (typeof onFailed === 'function') {
      onFailed(failure);
      return undefined as T;
    }
    throw failure;
  }
}

export class GoEasy {
  static readonly version = '2.8.3';
  static readonly IM_EVENT = IM_EVENT;
  static readonly IM_SCENE = IM_SCENE;
  private static instance: GoEasy | null = null;

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
  readonly onlineTeams = new Set<string>();

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
    this.connection.onStatus((status) => this.statusListeners.forEach((listener) => listener(status)));
    this.pubsubModule = new PubSub(
      () => this.connection,
      () => this.anonymous,
    );
    this.pubsubModule.attach(this.connection);
    this.connection.onDisconnected = () => this.imModule?.connectionLost();
    this.connection.onConnected = (status) => this.afterConnected(status);
    this.pubsub = new PubSubApi(this);
    this.im = new ImApi(this);
  }

  private afterConnected(status: ConnectionStatus): void {
    if (status === ConnectionStatus.CONNECTED) return;
    this.pubsubModule.resubscribe(status === ConnectionStatus.EXPIRED_RECONNECTED);
    const im = this.imModule;
    if (!im) return;
    im.resync(status).catch(() => undefined);
    for (const teamId of this.onlineTeams) im.loadPending(teamId).catch(() => undefined);
  }

  /**
   * @internal Guards every module call: connect() first, and the module enabled (messaging.md §5: both answer
   * "Please call connect() first.").
   */
  module(name: 'PUBSUB'): PubSub;
  module(name: 'IM'): Im;
  module(name: 'PUBSUB' | 'IM'): PubSub | Im {
    if (!this.connected || !this.options.modules.includes(name)) throw badRequest(ErrorText.CALL_CONNECT_FIRST);
    if (name === 'PUBSUB') return this.pubsubModule;
    if (!this.imModule) throw badRequest(ErrorText.CALL_CONNECT_FIRST);
    return this.imModule;
  }

  /** @internal */
  socket(): Connection {
    return this.connection;
  }

  connect(options: ConnectOptions): Promise<void> {
    return settle(options, async () => {
      if (this.connection.isConnected() || this.connection.isConnecting()) {
        throw messagingError(ErrorCode.TIMEOUT, ErrorText.ALREADY_CONNECTED);
      }
      const imEnabled = this.options.modules.includes('IM');
      validateConnectOptions(options, imEnabled);
      this.anonymous = isBlank(options.id);
      const userId = this.anonymous ? null : String(options.id);
      if (imEnabled && userId !== null && this.imModule?.myId !== userId) {
        this.imModule = new Im(() => this.connection, userId, this.imListeners);
        this.imModule.attach(this.connection);
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
      this.onlineTeams.clear();
    });
  }

  getConnectionStatus(): ConnectionStatus {
    return this.connection.status;
  }

  /** Every connection status change, as it happens. Returns the function that stops listening. */
  onConnectionStatusChanged(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }
}

/** The options without their callbacks: the API object settles them, so the module must not settle them again. */
function uncalled<T extends object>(options: T): T {
  return { ...options, onSuccess: undefined, onFailed: undefined };
}

export class PubSubApi {
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

export class ImApi {
  private readonly teams = new Map<string, CSTeam>();
  constructor(private readonly goeasy: GoEasy) {}

  private run<T>(options: CallbackOptions<T> | undefined, call: (module: Im) => Promise<T>): Promise<T> {
    return settle(options, () => call(this.goeasy.module('IM')));
  }

  /** Listeners may be added before connect(); they receive events once connected. */
  on(event: IMEvent, listener: (payload: never) => void): void {
    this.goeasy.imListeners.on(event, listener);
  }
  off(event: IMEvent, listener: (payload: never) => void): void {
    this.goeasy.imListeners.off(event, listener);
  }

  createTextMessage(options: TextMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createText(options));
  }
  createImageMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createFile('image', options));
  }
  createFileMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createFile('file', options));
  }
  createAudioMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createFile('audio', options));
  }
  createVideoMessage(options: FileMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createFile('video', options));
  }
  createCustomMessage(options: CustomMessageCreateOptions): AnyMessage {
    return createOrFail(options, () => this.goeasy.module('IM').createCustom(options));
  }

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
      team = new CSTeam(
        id,
        () => this.goeasy.module('IM'),
        () => this.goeasy.socket(),
        this.goeasy.onlineTeams,
      );
      this.teams.set(id, team);
    }
    return team;
  }
}

export default GoEasy;
