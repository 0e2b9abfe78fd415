/**
 * The messaging protocol, once: what the SDK (src/messaging) and the messaging server (server/messaging) both speak
 * (messaging.md §5/§8 and messaging-wire.md). This file: scenes, message types, error codes, media types and the wire
 * shapes of messages and pushes. Beside it, each imported as a namespace: request names (calls.ts), push names
 * (pushes.ts), limits (limits.ts) and every error text either side shows, in the GoEasy 2.8.3 client's own wording
 * (texts.ts).
 *
 * It lives inside the SDK because the SDK must stay self-contained (an app copies src/messaging and nothing else);
 * the server imports this one folder of src/ (the layering allows exactly this edge, see the README). It is pure:
 * no Taro, no Node, no imports from outside the folder, so it costs the mini-program bundle only the constants the
 * SDK uses.
 */

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
