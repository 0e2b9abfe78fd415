import { Limits, MediaTypes, SCENES, SENDABLE_SCENES, Text, badRequest } from './protocol';

/**
 * The server repeats every check of messaging.md §5 that the payload still shows on the wire, with the
 * client's own wording, so a modified or foreign client gets the same answers as the SDK gives locally.
 */
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The client's notion of empty: undefined/null, a blank string, an empty array. */
export function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isNumber(value)) return false;
  if (isString(value)) return value.trim() === '';
  return value === undefined || value === null;
}

/**
 * User, group and team ids become parts of storage keys and room names, which `:` separates: an id is at
 * most 60 characters (the spec's limit, applied with IM too) of letters, digits and `_ - . @`.
 */
const ID_CHARACTERS = /^[A-Za-z0-9_.@-]+$/;

function checkIdText(id: string, name: string): string {
  if (id.length > Limits.ID_LENGTH) throw badRequest(`${name} over max length ${Limits.ID_LENGTH}`);
  if (!ID_CHARACTERS.test(id)) throw badRequest(`${name} may only contain letters, digits, _ - . and @`);
  return id;
}

export function validateId(value: unknown, name: string): string {
  if (isEmpty(value)) throw badRequest(Text.required(name));
  if (!isString(value) && !isNumber(value)) throw badRequest(Text.stringOrNumber(name));
  return checkIdText(String(value), name);
}

export function validateIdArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(Text.array(name));
  // The limit is 300; the message says 500 in the reference client and we keep its words.
  if (value.length > Limits.ID_ARRAY) throw badRequest(Text.arrayTooLong(name));
  const ids = value.map((item) => {
    if (!isString(item) && !isNumber(item)) throw badRequest(Text.itemStringOrNumber(name));
    const id = String(item);
    if (id.length === 0) throw badRequest(Text.emptyItem(name));
    return checkIdText(id, `${name} item`);
  });
  if (new Set(ids).size < ids.length) throw badRequest(Text.duplicate(name));
  return ids;
}

/** Channels are only ever room names behind their own prefix: any printable text up to 255 characters. */
export function validateChannel(value: unknown, name = 'channel'): string {
  if (isEmpty(value)) throw badRequest(Text.required(name));
  if (!isString(value) && !isNumber(value)) throw badRequest(Text.stringOrNumber(name));
  const channel = String(value);
  if (channel.length > Limits.CHANNEL_LENGTH) throw badRequest(`${name} over max length ${Limits.CHANNEL_LENGTH}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(channel)) throw badRequest(`${name} may not contain control characters`);
  return channel;
}

export function validateChannels(channel: unknown, channels: unknown): string[] {
  const hasOne = !isEmpty(channel);
  const hasMany = !isEmpty(channels);
  if (!hasOne && !hasMany) throw badRequest(Text.CHANNEL_REQUIRED);
  if (hasOne && hasMany) throw badRequest(Text.CHANNEL_OR_CHANNELS);
  if (hasOne) return [validateChannel(channel)];
  if (!Array.isArray(channels)) throw badRequest(Text.array('channels'));
  if (channels.length > Limits.ID_ARRAY) throw badRequest(Text.arrayTooLong('channels'));
  const list = channels.map((item) => {
    if (!isString(item) && !isNumber(item)) throw badRequest(Text.itemStringOrNumber('channels'));
    if (String(item) === '') throw badRequest(Text.emptyItem('channels'));
    return validateChannel(item, 'channels item');
  });
  if (new Set(list).size < list.length) throw badRequest(Text.duplicate('channels'));
  return list;
}

/** A small JSON object given as a string or an object (conversation, team, agent and customer data). */
export function checkDataSize(json: string, name: string): string {
  if (Buffer.byteLength(json) > Limits.CONVERSATION_DATA) {
    throw badRequest(`${name}-length limit ${Limits.CONVERSATION_DATA} byte.`);
  }
  return json;
}

export function validateNotification(value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw badRequest(Text.NOTIFICATION_OBJECT);
  for (const [key, max] of [
    ['title', 32],
    ['body', 50],
  ] as const) {
    const text = value[key];
    if (!(isString(text) && text.length <= max)) {
      throw badRequest(Text.notificationText(key, max));
    }
  }
  if (value.sound !== undefined && !isString(value.sound)) throw badRequest(Text.NOTIFICATION_SOUND);
  if (value.badge !== undefined && !isString(value.badge)) throw badRequest(Text.NOTIFICATION_BADGE);
  const vendorOptions = value.vendorOptions;
  if (isObject(vendorOptions)) {
    const rules: [string, string, 'string' | 'number'][] = [
      ['huawei', 'category', 'string'],
      ['xiaomi', 'channel_id', 'string'],
      ['oppo', 'channel_id', 'string'],
      ['vivo', 'classification', 'number'],
      ['vivo', 'category', 'string'],
    ];
    for (const [vendor, field, type] of rules) {
      const options = vendorOptions[vendor];
      if (!isObject(options) || options[field] === undefined) continue;
      const valid = type === 'string' ? isString(options[field]) : isNumber(options[field]);
      if (!valid) throw badRequest(`notification.vendorOptions.${vendor}.${field} require a ${type}}`);
    }
  }
  return { ...value, badge: (value.badge as string | undefined) || '0' };
}

export interface WxmpTemplateMsg {
  template_id: string;
  url?: string;
  miniprogram?: { appid: string; pagepath: string };
  data: Record<string, unknown>;
}

/**
 * On the wire `data` travels as a JSON string; it is parsed back before the check. The answer carries only the
 * template's own fields: the recipient (`touser`) is never the client's to choose, and only template ids in
 * `allowed` (the configuration's allow-list) pass.
 */
export function validateWxmpTemplateMsg(value: unknown, allowed: readonly string[]): WxmpTemplateMsg {
  if (!isObject(value)) throw badRequest(Text.TEMPLATE_OBJECT);
  let data = value.data;
  if (isString(data)) {
    try {
      data = JSON.parse(data);
    } catch {
      throw badRequest(Text.TEMPLATE_DATA);
    }
  }
  if (!isString(value.template_id)) throw badRequest(Text.TEMPLATE_ID);
  if (!isEmpty(value.url) && !isString(value.url)) throw badRequest(Text.TEMPLATE_URL);
  const mini = value.miniprogram;
  if (!isEmpty(mini) && !(isObject(mini) && isString(mini.appid) && isString(mini.pagepath))) {
    throw badRequest(Text.TEMPLATE_MINIPROGRAM);
  }
  if (!isObject(data)) throw badRequest(Text.TEMPLATE_DATA);
  if (!allowed.includes(value.template_id)) throw badRequest(`template_id ${value.template_id} is not allowed.`);
  const message: WxmpTemplateMsg = { template_id: value.template_id, data };
  if (isString(value.url) && value.url !== '') message.url = value.url;
  if (isObject(mini)) message.miniprogram = { appid: String(mini.appid), pagepath: String(mini.pagepath) };
  if (Buffer.byteLength(JSON.stringify(message)) > Limits.TEMPLATE_BYTES) {
    throw badRequest(`wxmpTemplateMsg-length limit ${Limits.TEMPLATE_BYTES} byte.`);
  }
  return message;
}

export function validatePublishContent(content: unknown): string {
  if (isEmpty(content)) throw badRequest(Text.MESSAGE_REQUIRED);
  if (!isString(content)) throw badRequest(Text.MESSAGE_STRING);
  if (content.length > Limits.PUBLISH_LENGTH) throw badRequest(Text.PUBLISH_TOO_LONG);
  return content;
}

export function validateQos(qos: unknown): 0 | 1 {
  if (qos === undefined || qos === null || qos === 0) return 0;
  if (qos === 1) return 1;
  throw badRequest(Text.QOS);
}

export function validateScene(scene: unknown): string {
  if (!isString(scene) || !(SCENES as readonly string[]).includes(scene)) throw badRequest(Text.SCENE_TYPES);
  return scene;
}

function fileExtension(name: unknown, contentType: unknown): string {
  const fromName = isString(name) && name.includes('.') ? name.split('.').pop() : '';
  const fromType = isString(contentType) && contentType.includes('/') ? contentType.split('/').pop() : '';
  return (fromName || fromType || '').toLowerCase();
}

function validateFilePayload(payload: Record<string, unknown>, maxBytes: number, types?: readonly string[]): void {
  const size = payload.size;
  if (size === 0) throw badRequest(Text.FILE_SIZE_ZERO);
  if (isNumber(size) && size > maxBytes) throw badRequest(Text.FILE_TOO_LARGE);
  if (types && !types.includes(fileExtension(payload.name, payload.contentType))) {
    throw badRequest(Text.FILE_TYPE);
  }
}

/**
 * The payload (`p`, a JSON string on the wire) of an IM message of type `mt`. Text keeps the spec's 3 KB;
 * every other type is held to `maxBytes`.
 */
export function validateImPayload(
  type: unknown,
  rawPayload: unknown,
  maxBytes: number,
): { type: string; payload: string } {
  if (isEmpty(type)) throw badRequest(Text.TYPE_EMPTY);
  if (!isString(type)) throw badRequest(Text.TYPE_STRING);
  if (type.length > 64) throw badRequest('type over max length 64');
  if (rawPayload === undefined || rawPayload === null || rawPayload === '') throw badRequest(Text.PAYLOAD_EMPTY);
  if (!isString(rawPayload)) throw badRequest(Text.PAYLOAD_TYPE);
  if (type !== 'text' && Buffer.byteLength(rawPayload) > maxBytes) {
    throw badRequest(`message-length limit ${Math.floor(maxBytes / 1024)}kb`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawPayload);
  } catch {
    throw badRequest(Text.PAYLOAD_TYPE);
  }
  if (!isObject(payload) && !isString(payload) && !isNumber(payload)) {
    throw badRequest(Text.PAYLOAD_TYPE);
  }
  if (isEmpty(payload) || (isObject(payload) && Object.keys(payload).length === 0)) {
    throw badRequest(Text.PAYLOAD_EMPTY);
  }
  if (type === 'text') {
    const text = isObject(payload) ? payload.text : undefined;
    if (isEmpty(text)) throw badRequest(Text.TEXT_EMPTY);
    if (!isString(text)) throw badRequest(Text.TEXT_STRING);
    if (text.length > Limits.TEXT_LENGTH) throw badRequest(Text.TEXT_TOO_LONG);
    if (rawPayload.length > Limits.TEXT_PAYLOAD_BYTES) throw badRequest(Text.TEXT_PAYLOAD_TOO_LONG);
  } else if (isObject(payload)) {
    if (type === 'image') validateFilePayload(payload, Limits.FILE_BYTES, MediaTypes.image);
    else if (type === 'audio') validateFilePayload(payload, Limits.FILE_BYTES, MediaTypes.audio);
    else if (type === 'file') validateFilePayload(payload, Limits.FILE_BYTES);
    else if (type === 'video' && isObject(payload.video)) {
      validateFilePayload(payload.video, Limits.VIDEO_BYTES, MediaTypes.video);
    }
  }
  return { type, payload: rawPayload };
}

export interface ImTarget {
  scene: string;
  id: string;
  data: Record<string, unknown>;
}

/** `to` and `d` and `t` of publishIM: the target id, its data (JSON) and the scene. */
export function validateImTarget(to: unknown, rawData: unknown, scene: unknown, senderId: string): ImTarget {
  if (isEmpty(to)) throw badRequest(Text.TO_REQUIRED);
  if (!isString(to) && !isNumber(to)) throw badRequest(Text.TO_ID_TYPE);
  if (!isString(scene) || !(SENDABLE_SCENES as readonly string[]).includes(scene)) {
    throw badRequest(Text.TO_TYPE);
  }
  let data: unknown = {};
  if (rawData !== undefined && rawData !== null && rawData !== '') {
    try {
      data = isString(rawData) ? JSON.parse(rawData) : rawData;
    } catch {
      data = null;
    }
  }
  if (!isObject(data)) throw badRequest(Text.TO_DATA);
  checkDataSize(JSON.stringify(data), 'to.data');
  const id = checkIdText(String(to), 'to.id');
  if (id === senderId) throw badRequest(Text.TO_SELF);
  return { scene, id, data };
}

/** Connect checks (§5) that the authorize payload still shows. */
export function validateConnectUser(
  userId: unknown,
  userData: unknown,
  wxmpId: unknown,
): { userId: string; userData: string; anonymous: boolean } {
  let id = '';
  if (!isEmpty(userId)) {
    if (!isString(userId) && !isNumber(userId)) throw badRequest(Text.ID_TYPE);
    id = checkIdText(String(userId), 'id');
  }
  let data = '{}';
  if (userData !== undefined && userData !== null && userData !== '') {
    if (!isString(userData)) throw badRequest(Text.DATA_OBJECT);
    let parsed: unknown;
    try {
      parsed = JSON.parse(userData);
    } catch {
      throw badRequest(Text.DATA_OBJECT);
    }
    if (parsed !== undefined && parsed !== null && !isObject(parsed)) {
      throw badRequest(Text.DATA_OBJECT);
    }
    if (Buffer.byteLength(userData) > Limits.USER_DATA_BYTES) throw badRequest(Text.USER_DATA_TOO_LONG);
    data = parsed ? userData : '{}';
  }
  if (wxmpId !== undefined && wxmpId !== null) {
    if (!isObject(wxmpId)) throw badRequest('TypeError: wxmpId requires an object.');
    if (isEmpty(wxmpId.appid)) throw badRequest(Text.WXMP_APPID);
    if (isEmpty(wxmpId.openid) || !isString(wxmpId.openid)) {
      throw badRequest(Text.WXMP_OPENID);
    }
    if (String(wxmpId.appid).length > 64 || wxmpId.openid.length > 128) {
      throw badRequest('wxmpId.appid or wxmpId.openid is too long.');
    }
  }
  return { userId: id, userData: data, anonymous: id === '' };
}

export function validateLimit(limit: unknown, fallback: number, max?: number): number {
  if (limit === undefined || limit === null) return fallback;
  if (!isNumber(limit) || !Number.isInteger(limit) || limit <= 0) throw badRequest('limit must be a positive integer.');
  return max !== undefined && limit > max ? max : limit;
}

export function validateTimes(times: unknown): number[] {
  if (!Array.isArray(times) || times.length === 0) throw badRequest(Text.MESSAGES_ARRAY);
  if (times.length > Limits.BATCH) throw badRequest(Text.BATCH_TOO_LARGE);
  return times.map((time, index) => {
    if (!isNumber(time)) throw badRequest(Text.notAMessage(index));
    return time;
  });
}
