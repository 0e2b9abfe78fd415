import { badRequest } from './errors';
import { MediaTypes, SCENES, type Scene } from './protocol';
import * as Limits from './protocol/limits';
import * as Text from './protocol/texts';

/**
 * The local checks of messaging.md §5. Each throws a `{code: 400, content}` with the exact wording
 * of the GoEasy 2.8.3 client, so an app that matches on those messages keeps working.
 */

export const SUPPORTED_MODULES = ['PUBSUB', 'IM'] as const;

type Bag = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStringOrNumber(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const fail = (content: string): never => {
  throw badRequest(content);
};

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** JSON text of a value, or null when it has none (a cycle, a BigInt): such data cannot travel. */
function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

/** String(value), or its type tag for what cannot become a string (an object without a prototype). */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export interface ValidGoEasyOptions {
  appkey: string;
  host: string;
  modules: Array<'PUBSUB' | 'IM'>;
}

export function validateGoEasyOptions(options: unknown): ValidGoEasyOptions {
  if (!isPlainObject(options)) fail('options is require an object.');
  const given = options as Bag;
  if (!isStringOrNumber(given.appkey) || String(given.appkey).length === 0) fail("Invalid options:'appkey' is empty.");
  if (!isStringOrNumber(given.host) || String(given.host).length === 0) fail("Invalid options:'host' is empty.");
  if (!Array.isArray(given.modules) || given.modules.length === 0)
    fail("Invalid options: 'modules' must be nonempty array");
  const modules = (given.modules as unknown[]).map((name) => {
    const upper = typeof name === 'string' ? name.toUpperCase() : '';
    if (!(SUPPORTED_MODULES as readonly string[]).includes(upper)) {
      fail(`Invalid options: module '${textOf(name)}' is not support`);
    }
    return upper as 'PUBSUB' | 'IM';
  });
  return { appkey: String(given.appkey), host: String(given.host), modules: Array.from(new Set(modules)) };
}

export function validateConnectOptions(options: unknown, imEnabled: boolean): void {
  if (!isPlainObject(options)) fail(Text.BAD_PARAMETERS);
  const given = options as Bag;
  if (imEnabled) {
    if (!isStringOrNumber(given.id)) fail(Text.ID_TYPE);
    if (!isPlainObject(given.data)) fail(Text.DATA_OBJECT_SHORT);
  } else if (typeof given.id === 'string' && given.id.length > Limits.ID_LENGTH) {
    fail(Text.ID_TOO_LONG);
  }
  if (given.data === null || (given.data !== undefined && !isPlainObject(given.data))) {
    fail(Text.DATA_OBJECT);
  }
  if (given.data !== undefined) {
    const json = jsonOf(given.data);
    if (json === null) fail(Text.DATA_OBJECT);
    if (utf8Length(json as string) > Limits.USER_DATA_BYTES) fail(Text.USER_DATA_TOO_LONG);
  }
  if (isPlainObject(given.wxmpId)) {
    if (isBlank(given.wxmpId.appid)) fail(Text.WXMP_APPID);
    if (isBlank(given.wxmpId.openid) || typeof given.wxmpId.openid !== 'string') {
      fail(Text.WXMP_OPENID);
    }
  } else if (given.wxmpId !== undefined && given.wxmpId !== null) {
    fail('TypeError: wxmpId requires an object.');
  }
}

export function validateId(value: unknown, name: string): string {
  if (isBlank(value)) fail(Text.required(name));
  if (!isStringOrNumber(value)) fail(Text.stringOrNumber(name));
  return String(value);
}

export function validateIdArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(Text.array(name));
  const items = value as unknown[];
  if (items.length > Limits.ID_ARRAY) fail(Text.arrayTooLong(name));
  const ids = items.map((item) => {
    if (!isStringOrNumber(item)) fail(Text.itemStringOrNumber(name));
    const id = String(item);
    if (id.length === 0) fail(Text.emptyItem(name));
    return id;
  });
  if (new Set(ids).size < ids.length) fail(Text.duplicate(name));
  return ids;
}

export function validateChannelOrChannels(channel: unknown, channels: unknown): string[] {
  const hasOne = !isBlank(channel);
  const hasMany = !isBlank(channels);
  if (!hasOne && !hasMany) fail(Text.CHANNEL_REQUIRED);
  if (hasOne && hasMany) fail(Text.CHANNEL_OR_CHANNELS);
  return hasOne ? [validateId(channel, 'channel')] : validateIdArray(channels, 'channels');
}

export function validateCallbackOptions(options: unknown): asserts options is Bag {
  if (!isPlainObject(options)) fail(Text.BAD_PARAMETERS);
}

export function validateSubscribe(options: unknown, anonymous: boolean): { channels: string[]; presence: boolean } {
  validateCallbackOptions(options);
  const channels = validateChannelOrChannels(options.channel, options.channels);
  let presence = false;
  if (isPlainObject(options.presence)) {
    const enable = options.presence.enable;
    if (typeof enable !== 'boolean') fail(Text.PRESENCE_ENABLE_BOOLEAN);
    presence = enable as boolean;
    if (presence && anonymous) {
      fail(Text.PRESENCE_NEEDS_ID);
    }
  }
  return { channels, presence };
}

export function validateSubscribePresence(options: unknown, anonymous: boolean): string[] {
  validateCallbackOptions(options);
  const channels = validateChannelOrChannels(options.channel, options.channels);
  if (typeof options.onPresence !== 'function') {
    fail(Text.PRESENCE_NEEDS_CALLBACK);
  }
  if (anonymous) {
    fail(Text.PRESENCE_NEEDS_ID);
  }
  return channels;
}

export function validateNotification(notification: unknown): void {
  if (!isPlainObject(notification)) fail(Text.NOTIFICATION_OBJECT);
  const given = notification as Bag;
  const text = (key: string, max: number) => {
    const value = given[key];
    if (typeof value !== 'string' || value.length > max) {
      fail(Text.notificationText(key, max));
    }
  };
  text('title', Limits.NOTIFICATION_TITLE);
  text('body', Limits.NOTIFICATION_BODY);
  if (given.sound !== undefined && typeof given.sound !== 'string') fail(Text.NOTIFICATION_SOUND);
  if (given.badge !== undefined && typeof given.badge !== 'string') fail(Text.NOTIFICATION_BADGE);
  const vendors = given.vendorOptions;
  if (!isPlainObject(vendors)) return;
  const vendorField = (vendor: string, key: string, kind: 'string' | 'number') => {
    const options = vendors[vendor];
    if (!isPlainObject(options) || options[key] === undefined) return;
    const value = options[key];
    const matches = kind === 'string' ? typeof value === 'string' : typeof value === 'number';
    if (!matches) fail(Text.vendorOption(vendor, key, kind));
  };
  vendorField('huawei', 'category', 'string');
  vendorField('xiaomi', 'channel_id', 'string');
  vendorField('oppo', 'channel_id', 'string');
  vendorField('vivo', 'classification', 'number');
  vendorField('vivo', 'category', 'string');
}

/** The notification as sent: badge defaults to "0". */
export function normalizeNotification<T extends object>(notification: T): T & { badge: string } {
  return { ...notification, badge: (notification as { badge?: string }).badge || '0' };
}

export function validateWxmpTemplateMsg(template: unknown): void {
  if (!isPlainObject(template)) fail(Text.TEMPLATE_OBJECT);
  const given = template as Bag;
  if (typeof given.template_id !== 'string') fail(Text.TEMPLATE_ID);
  if (!isBlank(given.url) && typeof given.url !== 'string') fail(Text.TEMPLATE_URL);
  const mini = given.miniprogram;
  if (!isBlank(mini) && !(isPlainObject(mini) && typeof mini.appid === 'string' && typeof mini.pagepath === 'string')) {
    fail(Text.TEMPLATE_MINIPROGRAM);
  }
  if (!isPlainObject(given.data)) fail(Text.TEMPLATE_DATA);
}

export function validatePublish(options: unknown): void {
  validateCallbackOptions(options);
  validateId(options.channel, 'channel');
  if (isBlank(options.message)) fail(Text.MESSAGE_REQUIRED);
  if (typeof options.message !== 'string') fail(Text.MESSAGE_STRING);
  if ((options.message as string).length > Limits.PUBLISH_LENGTH) fail(Text.PUBLISH_TOO_LONG);
  if (options.qos !== undefined && options.qos !== 0 && options.qos !== 1) fail(Text.QOS);
  if (options.wxmpTemplateMsg !== undefined) validateWxmpTemplateMsg(options.wxmpTemplateMsg);
  if (options.notification !== undefined) validateNotification(options.notification);
}

export function validateCreateOptions(options: unknown): asserts options is Bag {
  if (!isPlainObject(options)) fail('it is an empty message.');
}

export function validateText(text: unknown): string {
  if (isBlank(text)) fail(Text.TEXT_EMPTY);
  if (typeof text !== 'string') fail(Text.TEXT_STRING);
  const value = text as string;
  if (value.trim() === '') fail(Text.TEXT_EMPTY);
  if (value.length > Limits.TEXT_LENGTH) fail(Text.TEXT_TOO_LONG);
  return value;
}

/** The serialized text payload travels in one frame: at most 3072 characters of JSON. */
export function validateTextPayload(payload: unknown): void {
  const json = jsonOf(payload);
  if (json === null) fail(Text.INVALID_MESSAGE);
  if ((json as string).length > Limits.TEXT_PAYLOAD_BYTES) fail(Text.TEXT_PAYLOAD_TOO_LONG);
}

export type FileKind = 'file' | 'image' | 'audio' | 'video';

/** A browser File/Blob, or a mini-program temp file (`path`/`tempFilePath` plus `size`). */
export interface MediaFile {
  name?: string;
  type?: string;
  size: number;
  path?: string;
  tempFilePath?: string;
  /** Images and videos: measured from the file when an image leaves them out. */
  width?: number;
  height?: number;
  /** Audio and video, in seconds. */
  duration?: number;
  /**
   * Video: a poster frame as a local path (the mini-program's `chooseVideo`/`chooseMedia` give
   * `thumbTempFilePath`; on H5 a blob URL of a canvas frame). Uploaded and used as the thumbnail.
   */
  thumbTempFilePath?: string;
}

export function fileExtension(file: MediaFile): string {
  const fromType = typeof file.type === 'string' && file.type.includes('/') ? file.type.split('/')[1] : '';
  if (fromType) return fromType.toLowerCase();
  const name = file.name || file.path || file.tempFilePath || '';
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function validateFile(file: unknown, kind: FileKind): MediaFile {
  if (file === undefined || file === null) fail(Text.FILE_EMPTY);
  if (!isPlainObject(file) && !(typeof Blob !== 'undefined' && file instanceof Blob)) fail(Text.FILE_TYPE);
  const given = file as MediaFile;
  const isBrowserFile = typeof Blob !== 'undefined' && file instanceof Blob;
  if (!isBrowserFile && typeof given.path !== 'string' && typeof given.tempFilePath !== 'string') {
    fail(Text.FILE_TYPE);
  }
  if (typeof given.size !== 'number' || given.size === 0) fail(Text.FILE_SIZE_ZERO);
  const max = kind === 'video' ? Limits.VIDEO_BYTES : Limits.FILE_BYTES;
  if (given.size > max) fail(Text.FILE_TOO_LARGE);
  const allowed: readonly string[] | undefined = kind === 'file' ? undefined : MediaTypes[kind];
  if (allowed && !allowed.includes(fileExtension(given))) fail(Text.onlyTypes(kind));
  return given;
}

export function validateCustom(type: unknown, payload: unknown): void {
  if (isBlank(type)) fail(Text.TYPE_EMPTY);
  if (typeof type !== 'string') fail(Text.TYPE_STRING);
  if (isBlank(payload) || (isPlainObject(payload) && Object.keys(payload).length === 0)) fail(Text.PAYLOAD_EMPTY);
  if (!isPlainObject(payload) && !isStringOrNumber(payload)) fail(Text.PAYLOAD_TYPE);
}

export interface Target {
  type: 'private' | 'group' | 'cs';
  id: string;
  data: Bag;
}

export function validateTo(to: unknown, myId: string | null): Target {
  if (to === undefined || to === null) fail(Text.TO_REQUIRED);
  if (!isPlainObject(to)) fail(Text.TO_OBJECT);
  const given = to as Bag;
  if (!isPlainObject(given.data)) fail(Text.TO_DATA);
  if (given.type !== 'private' && given.type !== 'group' && given.type !== 'cs') fail(Text.TO_TYPE);
  if (isBlank(given.id)) fail(Text.TO_ID);
  if (!isStringOrNumber(given.id)) fail(Text.TO_ID_TYPE);
  if (myId !== null && String(given.id) === myId) fail(Text.TO_SELF);
  return { type: given.type as Target['type'], id: String(given.id), data: given.data as Bag };
}

/** What the batch checks need to know about a message. */
export interface BatchMessage {
  messageId: string;
  senderId: string;
  status: string;
  recalled: boolean;
  conversationKey: string;
  scene: string;
}

export function validateBatch(
  messages: unknown,
  toBatchMessage: (item: unknown) => BatchMessage | null,
): BatchMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) fail(Text.MESSAGES_ARRAY);
  const items = messages as unknown[];
  if (items.length > Limits.BATCH) fail(Text.BATCH_TOO_LARGE);
  const batch = items.map((item, index) => {
    const message = toBatchMessage(item);
    if (!message) fail(Text.notAMessage(index));
    return message as BatchMessage;
  });
  if (batch.some((message) => message.conversationKey !== batch[0].conversationKey)) {
    fail(Text.SAME_CONVERSATION);
  }
  return batch;
}

export function validateDelete(batch: BatchMessage[]): void {
  batch.forEach((message, index) => {
    if (message.scene === 'cs') fail(Text.DELETE_CS_UNSUPPORTED);
    if (message.status === 'sending') fail(Text.cannotDelete(index));
  });
}

export function validateRecall(batch: BatchMessage[], myId: string | null): void {
  batch.forEach((message, index) => {
    if (message.scene === 'cs') fail(Text.RECALL_CS_UNSUPPORTED);
    if (message.status !== 'success') fail(Text.cannotRecall(index, message.status));
    if (message.recalled) fail(Text.alreadyRecalled(index));
    if (message.senderId !== myId) fail(Text.RECALL_OTHERS);
  });
}

export type { Scene };

export interface ConversationTarget {
  scene: Scene;
  id: string;
}

export interface HistoryQuery extends ConversationTarget {
  lastTimestamp?: number;
  limit: number;
}

function incorrectType(): never {
  return fail(Text.SCENE_TYPES);
}

/** History and mark-as-read name their conversation by userId, groupId, or type plus id. */
export function validateConversationTarget(options: Bag): ConversationTarget {
  if (!isBlank(options.userId)) return { scene: 'private', id: validateId(options.userId, 'userId') };
  if (!isBlank(options.groupId)) return { scene: 'group', id: validateId(options.groupId, 'groupId') };
  if (!isBlank(options.type)) {
    if (!(SCENES as readonly unknown[]).includes(options.type)) incorrectType();
    if (isBlank(options.id)) fail('If type is not empty, id is required.');
    return { scene: options.type as Scene, id: validateId(options.id, 'id') };
  }
  return fail('incorrect query options.');
}

/** Number(value), or NaN for what has no number (a Symbol, an object without a prototype). */
function numberOf(value: unknown): number {
  try {
    return Number(value);
  } catch {
    return Number.NaN;
  }
}

export function validateHistory(options: unknown): HistoryQuery {
  validateCallbackOptions(options);
  const target = validateConversationTarget(options);
  const requested = numberOf(options.limit);
  const limit =
    Number.isFinite(requested) && requested > 0
      ? Math.min(Math.floor(requested), Limits.HISTORY_MAX)
      : Limits.HISTORY_DEFAULT;
  const last = numberOf(options.lastTimestamp);
  return { ...target, limit, lastTimestamp: Number.isFinite(last) && last > 0 ? last : undefined };
}

export function validateMarkAsRead(options: unknown): ConversationTarget {
  validateCallbackOptions(options);
  if ('userId' in options) {
    if (isBlank(options.userId)) fail('userId could not be empty.');
    return { scene: 'private', id: validateId(options.userId, 'userId') };
  }
  if ('groupId' in options) {
    if (isBlank(options.groupId)) fail('groupId could not be empty.');
    return { scene: 'group', id: validateId(options.groupId, 'groupId') };
  }
  if (isBlank(options.id)) fail('id could not be empty.');
  if (!(SCENES as readonly unknown[]).includes(options.type)) incorrectType();
  return { scene: options.type as Scene, id: validateId(options.id, 'id') };
}

export function validateTop(top: unknown): boolean {
  if (typeof top !== 'boolean') fail(Text.TOP_BOOLEAN);
  return top as boolean;
}

export function validateCsOnline(options: unknown): void {
  validateCallbackOptions(options);
  if (!isPlainObject(options.agentData) || !isPlainObject(options.teamData)) {
    fail('agentData and teamData require an object');
  }
}

export function validateAccept(options: unknown): { id: string; data: Bag } {
  validateCallbackOptions(options);
  const customer = options.customer;
  if (customer === undefined || customer === null) fail(Text.CUSTOMER_REQUIRED);
  if (!isPlainObject(customer)) fail(Text.CUSTOMER_REQUIRED);
  const given = customer as Bag;
  const id = validateId(given.id, 'customer.id');
  if (!isPlainObject(given.data) || Object.keys(given.data).length === 0)
    fail('customer data must be non-empty object.');
  return { id, data: given.data as Bag };
}

export function validateTransfer(options: unknown): { customerId: string; agentId: string } {
  validateCallbackOptions(options);
  return { customerId: validateId(options.customerId, 'customerId'), agentId: validateId(options.agentId, 'agentId') };
}
