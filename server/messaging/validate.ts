import { Limits, SCENES, badRequest } from './protocol';

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
  if (isEmpty(value)) throw badRequest(` ${name} is required.`);
  if (!isString(value) && !isNumber(value)) throw badRequest(`TypeError: ${name} require string or number.`);
  return checkIdText(String(value), name);
}

export function validateIdArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`TypeError: ${name} require array.`);
  // The limit is 300; the message says 500 in the reference client and we keep its words.
  if (value.length > Limits.ID_ARRAY) throw badRequest(`${name} is over max length 500.`);
  const ids = value.map((item) => {
    if (!isString(item) && !isNumber(item)) throw badRequest(`TypeError: ${name} item require string or number.`);
    const id = String(item);
    if (id.length === 0) throw badRequest(`${name} has empty item.`);
    return checkIdText(id, `${name} item`);
  });
  if (new Set(ids).size < ids.length) throw badRequest(`Duplicate element in ${name}`);
  return ids;
}

/** Channels are only ever room names behind their own prefix: any printable text up to 255 characters. */
export function validateChannel(value: unknown, name = 'channel'): string {
  if (isEmpty(value)) throw badRequest(` ${name} is required.`);
  if (!isString(value) && !isNumber(value)) throw badRequest(`TypeError: ${name} require string or number.`);
  const channel = String(value);
  if (channel.length > Limits.CHANNEL_LENGTH) throw badRequest(`${name} over max length ${Limits.CHANNEL_LENGTH}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(channel)) throw badRequest(`${name} may not contain control characters`);
  return channel;
}

export function validateChannels(channel: unknown, channels: unknown): string[] {
  const hasOne = !isEmpty(channel);
  const hasMany = !isEmpty(channels);
  if (!hasOne && !hasMany) throw badRequest('channel is required.');
  if (hasOne && hasMany) throw badRequest('subscribe to either channel or channels, not both.');
  if (hasOne) return [validateChannel(channel)];
  if (!Array.isArray(channels)) throw badRequest('TypeError: channels require array.');
  if (channels.length > Limits.ID_ARRAY) throw badRequest('channels is over max length 500.');
  const list = channels.map((item) => {
    if (!isString(item) && !isNumber(item)) throw badRequest('TypeError: channels item require string or number.');
    if (String(item) === '') throw badRequest('channels has empty item.');
    return validateChannel(item, 'channels item');
  });
  if (new Set(list).size < list.length) throw badRequest('Duplicate element in channels');
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
  if (!isObject(value)) throw badRequest('TypeError: notification requires an object.');
  for (const [key, max] of [
    ['title', 32],
    ['body', 50],
  ] as const) {
    const text = value[key];
    if (!(isString(text) && text.length <= max)) {
      throw badRequest(`notification.${key} must be a string of no more than ${max} characters`);
    }
  }
  if (value.sound !== undefined && !isString(value.sound)) throw badRequest('notification.sound must be a string');
  if (value.badge !== undefined && !isString(value.badge)) throw badRequest('notification.badge must be a string');
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
  if (!isObject(value)) throw badRequest('wxmpTemplateMsg must be an object.');
  let data = value.data;
  if (isString(data)) {
    try {
      data = JSON.parse(data);
    } catch {
      throw badRequest('data requires an object.');
    }
  }
  if (!isString(value.template_id)) throw badRequest('template_id must be string.');
  if (!isEmpty(value.url) && !isString(value.url)) throw badRequest('url must be string');
  const mini = value.miniprogram;
  if (!isEmpty(mini) && !(isObject(mini) && isString(mini.appid) && isString(mini.pagepath))) {
    throw badRequest('miniprogram.appid and miniprogram.pagepath must be strings.');
  }
  if (!isObject(data)) throw badRequest('data requires an object.');
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
  if (isEmpty(content)) throw badRequest('message is required.');
  if (!isString(content)) throw badRequest('TypeError: message requires string.');
  if (content.length > Limits.PUBLISH_LENGTH) throw badRequest('Message over max length 10000.');
  return content;
}

export function validateQos(qos: unknown): 0 | 1 {
  if (qos === undefined || qos === null || qos === 0) return 0;
  if (qos === 1) return 1;
  throw badRequest('Qos must be 0 or 1.');
}

export function validateScene(scene: unknown): string {
  if (!isString(scene) || !SCENES.includes(scene)) throw badRequest('incorrect type, must be: private,group,system,cs');
  return scene;
}

const IMAGE_TYPES = ['gif', 'jpg', 'png', 'jpeg'];
const AUDIO_TYPES = ['mp3', 'ogg', 'wav', 'wma', 'ape', 'acc', 'mpeg'];
const VIDEO_TYPES = ['avi', 'mov', 'rmvb', 'rm', 'flv', 'mp4', '3gp', 'quicktime'];

function fileExtension(name: unknown, contentType: unknown): string {
  const fromName = isString(name) && name.includes('.') ? name.split('.').pop() : '';
  const fromType = isString(contentType) && contentType.includes('/') ? contentType.split('/').pop() : '';
  return (fromName || fromType || '').toLowerCase();
}

function validateFilePayload(payload: Record<string, unknown>, maxBytes: number, types?: string[]): void {
  const size = payload.size;
  if (size === 0) throw badRequest('File size is 0.');
  if (isNumber(size) && size > maxBytes) throw badRequest('message-length limit 30mib');
  if (types && !types.includes(fileExtension(payload.name, payload.contentType))) {
    throw badRequest('wrong file type.');
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
  if (isEmpty(type)) throw badRequest('type is empty.');
  if (!isString(type)) throw badRequest('type require a string');
  if (type.length > 64) throw badRequest('type over max length 64');
  if (rawPayload === undefined || rawPayload === null || rawPayload === '') throw badRequest('payload is empty.');
  if (!isString(rawPayload)) throw badRequest('payload require object | string | number.');
  if (type !== 'text' && Buffer.byteLength(rawPayload) > maxBytes) {
    throw badRequest(`message-length limit ${Math.floor(maxBytes / 1024)}kb`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawPayload);
  } catch {
    throw badRequest('payload require object | string | number.');
  }
  if (!isObject(payload) && !isString(payload) && !isNumber(payload)) {
    throw badRequest('payload require object | string | number.');
  }
  if (isEmpty(payload) || (isObject(payload) && Object.keys(payload).length === 0)) {
    throw badRequest('payload is empty.');
  }
  if (type === 'text') {
    const text = isObject(payload) ? payload.text : undefined;
    if (isEmpty(text)) throw badRequest('text is empty');
    if (!isString(text)) throw badRequest('TypeError: text requires string.');
    if (text.length > Limits.TEXT_LENGTH) throw badRequest('Message text over max length 2500');
    if (rawPayload.length > Limits.TEXT_PAYLOAD) throw badRequest('message-length limit 3kb');
  } else if (isObject(payload)) {
    if (type === 'image') validateFilePayload(payload, Limits.FILE_BYTES, IMAGE_TYPES);
    else if (type === 'audio') validateFilePayload(payload, Limits.FILE_BYTES, AUDIO_TYPES);
    else if (type === 'file') validateFilePayload(payload, Limits.FILE_BYTES);
    else if (type === 'video' && isObject(payload.video)) {
      validateFilePayload(payload.video, Limits.VIDEO_BYTES, VIDEO_TYPES);
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
  if (isEmpty(to)) throw badRequest('message require property to.');
  if (!isString(to) && !isNumber(to)) throw badRequest('to.id should be a string or number.');
  if (!isString(scene) || !['private', 'group', 'cs'].includes(scene)) {
    throw badRequest('message require property to.type');
  }
  let data: unknown = {};
  if (rawData !== undefined && rawData !== null && rawData !== '') {
    try {
      data = isString(rawData) ? JSON.parse(rawData) : rawData;
    } catch {
      data = null;
    }
  }
  if (!isObject(data)) throw badRequest('TypeError: to.data requires an object.');
  checkDataSize(JSON.stringify(data), 'to.data');
  const id = checkIdText(String(to), 'to.id');
  if (id === senderId) throw badRequest('to.id can not be the same as your id.');
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
    if (!isString(userId) && !isNumber(userId)) throw badRequest('TypeError: id requires number or string.');
    id = checkIdText(String(userId), 'id');
  }
  let data = '{}';
  if (userData !== undefined && userData !== null && userData !== '') {
    if (!isString(userData)) throw badRequest('TypeError: data requires an object.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(userData);
    } catch {
      throw badRequest('TypeError: data requires an object.');
    }
    if (parsed !== undefined && parsed !== null && !isObject(parsed)) {
      throw badRequest('TypeError: data requires an object.');
    }
    if (Buffer.byteLength(userData) > Limits.USER_DATA) throw badRequest('user.data-length limit 300 byte.');
    data = parsed ? userData : '{}';
  }
  if (wxmpId !== undefined && wxmpId !== null) {
    if (!isObject(wxmpId)) throw badRequest('TypeError: wxmpId requires an object.');
    if (isEmpty(wxmpId.appid)) throw badRequest('wxmpId.appid is required.');
    if (isEmpty(wxmpId.openid) || !isString(wxmpId.openid)) {
      throw badRequest('wxmpId.openid is required. requires string.');
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
  if (!Array.isArray(times) || times.length === 0) throw badRequest('messages requires non empty array');
  if (times.length > Limits.BATCH) throw badRequest('The maximum number of messages is 20');
  return times.map((time, index) => {
    if (!isNumber(time)) throw badRequest(`message[${index}] is not a correct message`);
    return time;
  });
}
