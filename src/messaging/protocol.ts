/**
 * The messaging protocol, once: what the SDK (src/messaging) and the messaging server (server/messaging) both speak.
 * Request and push names, limits, media types, the wire shapes of messages and pushes, and every error text either
 * side shows (messaging.md §5/§8 and messaging-wire.md, in the GoEasy 2.8.3 client's own wording).
 *
 * It lives inside the SDK because the SDK must stay self-contained (an app copies src/messaging and nothing else);
 * the server imports this one file of src/ (the layering allows exactly this edge, see the README). It is pure:
 * no Taro, no Node, no imports at all, so it costs the mini-program bundle only the constants it already carried.
 */

/** Requests: an emit with an ack. */
export const Call = {
  AUTHORIZE: 'authorize',
  MANUAL_DISCONNECT: 'manualDisconnect',
  PUBLISH: 'publish',
  SUBSCRIBE: 'subscribe',
  UNSUBSCRIBE: 'unsubscribe',
  HISTORY: 'historyMessages',
  PRESENCE_SUBSCRIBE: 'PUBSUB_PRESENCE_SUBSCRIBE',
  PRESENCE_UNSUBSCRIBE: 'PUBSUB_PRESENCE_UNSUBSCRIBE',
  PRESENCE_HERE_NOW: 'PUBSUB_PRESENCE_HERENOW',
  SET_IOS_BADGE: 'SET_IOS_BADGE',
  UPLOAD_TOKEN: 'uploadToken',
  PUBLISH_IM: 'publishIM',
  IM_HISTORY: 'IM_HISTORY',
  IM_HISTORY_CHANGE: 'IM_HISTORY_CHANGE',
  IM_MARK_AS_READ: 'IM_MARK_AS_READ',
  IM_RECALL: 'IM_RECALL_MESSAGE',
  IM_DELETE: 'IM_DELETE_MESSAGE',
  LAST_CONVERSATIONS: 'imLastConversations',
  TOP_CONVERSATION: 'topConversation',
  REMOVE_CONVERSATION: 'removeConversation',
  IM_DATA: 'imData',
  SUBSCRIBE_GROUPS: 'subscribeGroups',
  UNSUBSCRIBE_GROUP: 'unsubscribeGroup',
  SUBSCRIBE_GROUP_PRESENCE: 'subscribeGroupPresence',
  UNSUBSCRIBE_GROUP_PRESENCE: 'unsubscribeGroupPresence',
  SUBSCRIBE_USER_PRESENCE: 'subscribeUserPresence',
  UNSUBSCRIBE_USER_PRESENCE: 'unsubscribeUserPresence',
  IM_HERE_NOW: 'imHereNow',
  IM_GROUP_HERE_NOW: 'imGroupHereNow',
  IM_GROUP_ONLINE_COUNT: 'imGroupOnlineCount',
  CS_ONLINE: 'CS_ONLINE',
  CS_OFFLINE: 'CS_OFFLINE',
  CS_MY_TEAMS: 'CS_MY_TEAMS',
  CS_AGENTS: 'CS_AGENTS',
  CS_PENDING_CONVERSATION: 'CS_PENDING_CONVERSATION',
  CS_ACCEPT: 'CS_ACCEPT',
  CS_END: 'CS_END',
  CS_TRANSFER: 'CS_TRANSFER',
  CS_CUSTOMER_STATUS: 'CS_CUSTOMER_STATUS',
  CS_LIVE_SESSION: 'CS_LIVE_SESSION',
  CS_QUIT_LIVE: 'CS_QUIT_LIVE',
} as const;
export type CallName = (typeof Call)[keyof typeof Call];

/** Server pushes, and the client's answers to the two that are acknowledged. */
export const Push = {
  MESSAGE: 'message',
  IM_MESSAGE: 'imMessage',
  USER_PRESENCE: 'userPresence',
  GROUP_PRESENCE: 'groupPresence',
  PRESENCE_EVENT: 'PS_PRESENCE_EVENT',
  IM_READ: 'IM_MSG_READ',
  IM_DELETED: 'IM_MSG_DELETED',
  IM_RECALLED: 'IM_MSG_RECALLED',
  CS_ONLINE_CHANGED: 'CS_ONLINE_CHANGED',
  /** The client's acknowledgement of a `message` push. */
  ACK: 'ack',
  /** The client's acknowledgement of an `imMessage` push. */
  IM_ACK: 'imAck',
} as const;

/** Conversation scenes. System messages are sent by the shop (server side) only. */
export const Scene = { PRIVATE: 'private', GROUP: 'group', SYSTEM: 'system', CS: 'cs' } as const;
export type Scene = (typeof Scene)[keyof typeof Scene];
export const SCENES: readonly Scene[] = [Scene.PRIVATE, Scene.GROUP, Scene.SYSTEM, Scene.CS];
/** The scenes a client may send to (`to.type`). */
export const SENDABLE_SCENES: readonly Scene[] = [Scene.PRIVATE, Scene.GROUP, Scene.CS];
/** The sender id of every system message, and the conversation id of the system conversation. */
export const SYSTEM_SENDER = 'system';

export const CsMessageType = { ACCEPT: 'CS_ACCEPT', END: 'CS_END', TRANSFER: 'CS_TRANSFER' } as const;
export type CsStatus = 'FREE' | 'PENDING' | 'ACCEPTED';

export const MessageType = {
  TEXT: 'text',
  IMAGE: 'image',
  FILE: 'file',
  AUDIO: 'audio',
  VIDEO: 'video',
} as const;

/** messaging.md §5 and §9, and the server's own bounds on what the spec leaves open. */
export const Limits = {
  PUBLISH_LENGTH: 10000,
  TEXT_LENGTH: 2500,
  TEXT_PAYLOAD_BYTES: 3072,
  NOTIFICATION_TITLE: 32,
  NOTIFICATION_BODY: 50,
  ID_ARRAY: 300,
  /** What the reference client's message says the id-array limit is (it is 300). */
  ID_ARRAY_SAID: 500,
  BATCH: 20,
  USER_DATA_BYTES: 300,
  /** Ids without the IM module (client), and every id on the server (storage keys and room names). */
  ID_LENGTH: 60,
  CHANNEL_LENGTH: 255,
  /** Conversation data (`d`), CS team, agent and customer data: small JSON objects. */
  CONVERSATION_DATA: 1024,
  TEMPLATE_BYTES: 4096,
  /** The largest packet a client may send (socket.io closes the connection otherwise). */
  PACKET_BYTES: 100 * 1024,
  FILE_BYTES: 524288000,
  VIDEO_BYTES: 31457280,
  /** Image thumbnails are at most this high (messaging.md §9). */
  THUMBNAIL_HEIGHT: 200,
  HISTORY_DEFAULT: 10,
  HISTORY_MAX: 30,
  HERE_NOW_DEFAULT: 10,
  /** Per-conversation message cache and conversation list (client), conversations answered (server). */
  CACHE_MESSAGES: 200,
  CONVERSATIONS: 200,
  /** Pushes remembered to drop a second delivery. */
  RECENT_IDS: 300,
} as const;

/** The file extensions each media message accepts (messaging.md §5). */
export const MediaTypes = {
  image: ['gif', 'jpg', 'png', 'jpeg'],
  audio: ['mp3', 'ogg', 'wav', 'wma', 'ape', 'acc', 'mpeg'],
  video: ['avi', 'mov', 'rmvb', 'rm', 'flv', 'mp4', '3gp', 'quicktime'],
} as const;

export const ErrorCode = {
  BAD_REQUEST: 400,
  NO_PERMISSION: 401,
  TIMEOUT: 408,
  NOT_CONNECTED: 409,
  /** The server's flood limit: the content says which (per connection or per user) and how many per second. */
  TOO_MANY_REQUESTS: 429,
  UPLOAD_FAILED: 500,
} as const;

/** Every error text either side shows. Templates take the field name as the reference client words it. */
export const Text = {
  NO_PERMISSION: 'No permission',
  HOST_UNREACHABLE: 'Host unreachable or timeout',
  FAILED_TO_CONNECT: 'Failed to connect',
  CONNECT_FIRST: 'Please connect first',
  CALL_CONNECT_FIRST: 'Please call connect() first.',
  ALREADY_CONNECTED: "It is already connected, don't try again until disconnect() is called.",
  INVALID_APPKEY: 'Invalid appkey',
  SUBSCRIBE_GROUP_FAILED: 'Failed to subscribe group message',
  UNSUBSCRIBE_GROUP_FAILED: 'Failed to unsubscribe group message',
  UNSUBSCRIBE_PRESENCE_FAILED: 'Failed to unsubscribe presence',
  GROUP_HERE_NOW_FAILED: 'Failed to query online group users',
  SENT_ONCE: 'Please create a new message, a message can only be sent once',
  INVALID_MESSAGE: 'it is invalid message',
  NOTHING_TO_DELETE: 'No message that could be deleted',
  DELETE_CS_UNSUPPORTED: 'Delete CS message is not supported yet',
  RECALL_CS_UNSUPPORTED: 'Recall CS message is not supported yet.',
  RECALL_OTHERS: 'it is not allowed to recall messages sent by others',
  PENDING_TOP_REMOVE: 'pending conversation cannot be topped or removed.',
  CS_REMOVE_BEFORE_END: 'CS conversation can only be deleted after it ends',
  NO_CONVERSATION: 'conversation does not exist.',
  QUERY_TEAM_FIRST: 'please query team first.',
  STORAGE_UNSUPPORTED: 'Only Ali OSS and Tencent COS are supported',
  INTERNAL: 'Internal server error',
  NOT_A_MEMBER: 'you are not a member of this group.',
  NOT_AN_AGENT: 'you are not an agent of this team.',
  BAD_PARAMETERS: 'bad parameters',
  CHANNEL_REQUIRED: 'channel is required.',
  CHANNEL_OR_CHANNELS: 'subscribe to either channel or channels, not both.',
  PRESENCE_ENABLE_BOOLEAN: 'Subscription failed. presence.enable must be a boolean',
  PRESENCE_NEEDS_ID:
    'Subscription failed. If presence is enable, the id must be specified when calling the connect method',
  PRESENCE_NEEDS_CALLBACK: 'Subscription Presence failed. onPresence callback function is required',
  ID_TYPE: 'TypeError: id requires number or string.',
  DATA_OBJECT: 'TypeError: data requires an object.',
  DATA_OBJECT_SHORT: 'TypeError: data requires object.',
  ID_TOO_LONG: 'id over max length 60',
  USER_DATA_TOO_LONG: 'user.data-length limit 300 byte.',
  WXMP_APPID: 'wxmpId.appid is required.',
  WXMP_OPENID: 'wxmpId.openid is required. requires string.',
  NOTIFICATION_OBJECT: 'TypeError: notification requires an object.',
  NOTIFICATION_SOUND: 'notification.sound must be a string',
  NOTIFICATION_BADGE: 'notification.badge must be a string',
  TEMPLATE_OBJECT: 'wxmpTemplateMsg must be an object.',
  TEMPLATE_ID: 'template_id must be string.',
  TEMPLATE_URL: 'url must be string',
  TEMPLATE_MINIPROGRAM: 'miniprogram.appid and miniprogram.pagepath must be strings.',
  TEMPLATE_DATA: 'data requires an object.',
  MESSAGE_REQUIRED: 'message is required.',
  MESSAGE_STRING: 'TypeError: message requires string.',
  PUBLISH_TOO_LONG: 'Message over max length 10000.',
  QOS: 'Qos must be 0 or 1.',
  TEXT_EMPTY: 'text is empty',
  TEXT_STRING: 'TypeError: text requires string.',
  TEXT_TOO_LONG: 'Message text over max length 2500',
  TEXT_PAYLOAD_TOO_LONG: 'message-length limit 3kb',
  FILE_EMPTY: 'file is empty.',
  FILE_TYPE: 'wrong file type.',
  FILE_SIZE_ZERO: 'File size is 0.',
  FILE_TOO_LARGE: 'message-length limit 30mib',
  TYPE_EMPTY: 'type is empty.',
  TYPE_STRING: 'type require a string',
  PAYLOAD_EMPTY: 'payload is empty.',
  PAYLOAD_TYPE: 'payload require object | string | number.',
  TO_REQUIRED: 'message require property to.',
  TO_OBJECT: 'TypeError: to requires an object.',
  TO_DATA: 'TypeError: to.data requires an object.',
  TO_TYPE: 'message require property to.type',
  TO_ID: 'message require property to.id',
  TO_ID_TYPE: 'to.id should be a string or number.',
  TO_SELF: 'to.id can not be the same as your id.',
  MESSAGES_ARRAY: 'messages requires non empty array',
  BATCH_TOO_LARGE: 'The maximum number of messages is 20',
  SAME_CONVERSATION: 'each message must be from the same friend or group',
  TOP_BOOLEAN: 'top must be boolean.',
  INCORRECT_CONVERSATION: 'Incorrect conversation object.',
  CUSTOMER_REQUIRED: 'customer is required.',
  EVENT_STRING: 'event require a string.',
  EVENT_UNKNOWN: 'An event that is not defined',
  CALLBACK_FUNCTION: 'callback must be a function',
  SCENE_TYPES: 'incorrect type, must be: private,group,system,cs',
  BADGE_INTEGER: 'badge must be an integer greater than or equal to 0.',
  ARGUMENTS_FUNCTION: 'The arguments must be a function.',
  NOTIFICATION_UNSUPPORTED: "The current environment doesn't support or allowNotification is false.",
  required: (name: string) => ` ${name} is required.`,
  stringOrNumber: (name: string) => `TypeError: ${name} require string or number.`,
  array: (name: string) => `TypeError: ${name} require array.`,
  arrayTooLong: (name: string) => `${name} is over max length ${Limits.ID_ARRAY_SAID}.`,
  itemStringOrNumber: (name: string) => `TypeError: ${name} item require string or number.`,
  emptyItem: (name: string) => `${name} has empty item.`,
  duplicate: (name: string) => `Duplicate element in ${name}`,
  notificationText: (key: string, max: number) =>
    `notification.${key} must be a string of no more than ${max} characters`,
  vendorOption: (vendor: string, key: string, kind: string) =>
    `notification.vendorOptions.${vendor}.${key} require a ${kind}`,
  onlyTypes: (kind: string) =>
    `Only ${(MediaTypes as Record<string, readonly string[]>)[kind].join(',')} is supported ${kind}.`,
  notSubscribed: (channel: string) => `channel[${channel}] is not subscribed`,
  notAMessage: (index: number) => `message[${index}] is not a correct message`,
  cannotDelete: (index: number) => `message[${index}] is 'sending' and cannot be deleted`,
  cannotRecall: (index: number, status: string) => `message[${index}] is '${status}' and cannot be recalled`,
  alreadyRecalled: (index: number) => `message[${index}] has been recalled`,
  unsupportedRequest: (event: string) => `Unsupported request: ${event}`,
} as const;

/** An IM message as it travels (imMessage push, IM_HISTORY, lmsg): abbreviated keys, JSON strings for p and d. */
export interface WireMessage {
  /** scene */
  t?: Scene;
  /** receiver: the peer, group, team (a customer's CS message), customer (an agent's) or user (system) */
  r?: string;
  /** sender id */
  s: string;
  /** message id */
  i: string;
  /** timestamp */
  ts: number;
  /** message type */
  mt: string;
  /** payload, JSON */
  p?: string;
  /** sender data, JSON */
  d?: string;
  /** team id (CS) */
  tid?: string;
  accepted?: boolean;
  sessionId?: string | null;
  /** recalled */
  rc?: boolean;
  recaller?: { id: string; data?: unknown } | string;
  nt?: Record<string, unknown>;
}

/** `message` push (pub/sub). */
export interface WirePubSubMessage {
  n: string;
  c: string;
  t: number;
  i: string;
  a?: unknown;
  nt?: Record<string, unknown>;
}

/** One presence change of a user, inside a userPresence / groupPresence push's `c` (JSON). */
export interface WirePresenceEvent {
  userId: string;
  userData?: string;
  action: 'online' | 'offline';
  time: number;
}

/** The JSON in `c` of a userPresence or groupPresence push. */
export interface WirePresenceBody {
  events: WirePresenceEvent[];
  userAmount?: number;
  groupId?: string;
}

/** PS_PRESENCE_EVENT: a channel member joined or left. */
export interface WireChannelPresence {
  channel: string;
  action: 'join' | 'leave' | 'back' | 'timeout';
  member: { id: string; data: string | Record<string, unknown> };
  time: number;
  amount: number;
}

export interface WireReadPush {
  scene: Scene;
  targetId: string;
  markerId: string;
  teamId?: string;
  time: number;
}

export interface WireRecalledPush {
  scene: Scene;
  conversationId: string;
  recaller: { id: string; data?: unknown };
  times: number[];
}

export interface WireDeletedPush {
  scene: Scene;
  targetId?: string;
  conversationId: string;
  deleterId: string;
  times: number[];
}

export interface WireCsOnlineChanged {
  teamId: string;
  online: boolean;
}

/** One entry of `imLastConversations`. */
export interface WireConversation {
  t: Scene;
  top: boolean;
  d: string;
  lmsg: WireMessage;
  userOffsets: Array<{ userId: string; offset: number }>;
}

/** One entry of `CS_PENDING_CONVERSATION`. */
export interface WirePendingConversation {
  lastMessage: WireMessage;
  customerData: string;
  userOffsets: Array<{ userId: string; offset: number }>;
}
