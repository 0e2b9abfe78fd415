/**
 * The wire vocabulary shared by every handler: ack bodies, error texts, scenes and room names.
 * Acks carry both `resultCode` and `code` because the 2.8.3 client checks either, depending on the request.
 */
export interface AckBody {
  resultCode: number;
  code: number;
  content?: unknown;
  [key: string]: unknown;
}

export type Ack = (body: AckBody) => void;

export function ok(content?: unknown, extra: Record<string, unknown> = {}): AckBody {
  return { resultCode: 200, code: 200, content: content === undefined ? 'ok' : content, ...extra };
}

export function failure(code: number, content: string): AckBody {
  return { resultCode: code, code, content };
}

/** A refusal with the code and message the client shows; anything else thrown is an internal error. */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    readonly content: string,
  ) {
    super(content);
  }
}

export const badRequest = (content: string) => new RequestError(400, content);

export const Text = {
  NO_PERMISSION: 'No permission',
  CONNECT_FIRST: 'Please connect first',
  INVALID_APPKEY: 'Invalid appkey',
  NOTHING_TO_DELETE: 'No message that could be deleted',
  INVALID_MESSAGE: 'it is invalid message',
  DELETE_CS_UNSUPPORTED: 'Delete CS message is not supported yet',
  RECALL_CS_UNSUPPORTED: 'Recall CS message is not supported yet.',
  RECALL_OTHERS: 'it is not allowed to recall messages sent by others',
  PENDING_TOP_REMOVE: 'pending conversation cannot be topped or removed.',
  CS_REMOVE_BEFORE_END: 'CS conversation can only be deleted after it ends',
  NO_CONVERSATION: 'conversation does not exist.',
  STORAGE_UNSUPPORTED: 'Only Ali OSS and Tencent COS are supported',
  INTERNAL: 'Internal server error',
  NOT_A_MEMBER: 'you are not a member of this group.',
  NOT_AN_AGENT: 'you are not an agent of this team.',
} as const;

/** A flood refusal: its own code, so the SDK hands it to the app as it is (errors.ts TOO_MANY_REQUESTS). */
export const TOO_MANY_REQUESTS = 429;

export const Scene = { PRIVATE: 'private', GROUP: 'group', CS: 'cs' } as const;
export type Scene = (typeof Scene)[keyof typeof Scene];
export const SCENES: readonly string[] = Object.values(Scene);

export const CsMessageType = { ACCEPT: 'CS_ACCEPT', END: 'CS_END', TRANSFER: 'CS_TRANSFER' } as const;
export type CsStatus = 'FREE' | 'PENDING' | 'ACCEPTED';

export const Limits = {
  PUBLISH_LENGTH: 10000,
  TEXT_LENGTH: 2500,
  TEXT_PAYLOAD: 3072,
  ID_ARRAY: 300,
  BATCH: 20,
  USER_DATA: 300,
  ID_LENGTH: 60,
  CHANNEL_LENGTH: 255,
  /** Conversation data (`d`), CS team, agent and customer data: small JSON objects. */
  CONVERSATION_DATA: 1024,
  TEMPLATE_BYTES: 4096,
  /** The largest packet a client may send (socket.io closes the connection otherwise): a 10,000-character publish fits many times. */
  PACKET_BYTES: 100 * 1024,
  HISTORY_DEFAULT: 10,
  HISTORY_MAX: 30,
  HERE_NOW_DEFAULT: 10,
  CONVERSATIONS: 200,
  FILE_BYTES: 524288000,
  VIDEO_BYTES: 31457280,
} as const;

export type Permission = 'read' | 'write';

export const Rooms = {
  user: (userId: string) => `u:${userId}`,
  channel: (channel: string) => `ch:${channel}`,
  channelMembers: (channel: string) => `chm:${channel}`,
  channelWatchers: (channel: string) => `chw:${channel}`,
  group: (groupId: string) => `g:${groupId}`,
  groupWatchers: (groupId: string) => `gw:${groupId}`,
  userWatchers: (userId: string) => `uw:${userId}`,
  team: (teamId: string) => `cs:${teamId}`,
  teamAgent: (teamId: string, agentId: string) => `csa:${teamId}:${agentId}`,
  live: (teamId: string, customerId: string) => `live:${teamId}:${customerId}`,
  /** Every socket proven with one shop session, so a logout closes exactly those. */
  proof: (sessionRef: string) => `pf:${sessionRef}`,
};

/** What a socket carries after authorize; plain data so the Redis adapter can ship it between processes. */
export interface SocketIdentity {
  userId: string;
  userData: string;
  anonymous: boolean;
  sid: string;
  publish: boolean;
  subscribe: boolean;
  modules: string[];
  authorized: boolean;
  /** The shop session of the proof this socket was admitted with, and when that proof was issued. */
  proof: Proof | null;
}

export interface Proof {
  sessionRef: string;
  issuedAt: number;
}

/**
 * The storage key of a conversation. Each scene has its own prefix and ids cannot contain `:`
 * (validate.ts), so no id a client sends names a conversation of another scene or of other users:
 * private `p:<larger id>:<smaller id>`, group `g:<group id>`, CS `c:<team id>:<customer id>`.
 */
export function conversationKey(scene: string, a: string, b: string): string {
  if (scene === Scene.PRIVATE) return `p:${privatePair(a, b)}`;
  if (scene === Scene.GROUP) return `g:${b}`;
  if (scene === Scene.CS) return `c:${a}:${b}`;
  throw new RequestError(400, 'incorrect type, must be: private,group,system,cs');
}

/** The conversation id recall and delete events carry, as the clients parse it: the private pair, the group id. */
export function wireConversationId(scene: string, a: string, b: string): string {
  return scene === Scene.PRIVATE ? privatePair(a, b) : b;
}

function privatePair(a: string, b: string): string {
  return a.localeCompare(b) > 0 ? `${a}:${b}` : `${b}:${a}`;
}

export function parseJsonObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
