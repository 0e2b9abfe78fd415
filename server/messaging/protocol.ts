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
} as const;

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
}

/** Private conversations are keyed like the client keys them (the larger id first), groups by id, CS by team and customer. */
export function conversationKey(scene: string, a: string, b: string): string {
  if (scene === Scene.PRIVATE) return a.localeCompare(b) > 0 ? `${a}:${b}` : `${b}:${a}`;
  if (scene === Scene.GROUP) return b;
  return `${a}|${b}`;
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
