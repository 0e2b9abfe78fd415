import {
  CsMessageType,
  type CsStatus,
  ErrorCode,
  MediaTypes,
  SCENES,
  SENDABLE_SCENES,
  SYSTEM_SENDER,
  Scene,
} from '../../src/messaging/protocol';
import * as Call from '../../src/messaging/protocol/calls';
import * as Limits from '../../src/messaging/protocol/limits';
import * as Push from '../../src/messaging/protocol/pushes';
import * as Text from '../../src/messaging/protocol/texts';

/**
 * The server's side of the wire: ack bodies, refusals, room names and conversation keys. The vocabulary itself
 * (request and push names, scenes, limits, error texts, message shapes) is the one protocol module the SDK and the
 * server share, src/messaging/protocol/, re-exported here.
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

/** A flood refusal: its own code, so the SDK hands it to the app as it is (errors.ts TOO_MANY_REQUESTS). */
export const TOO_MANY_REQUESTS = ErrorCode.TOO_MANY_REQUESTS;

export {
  Call,
  CsMessageType,
  type CsStatus,
  Limits,
  MediaTypes,
  Push,
  SCENES,
  SENDABLE_SCENES,
  SYSTEM_SENDER,
  Scene,
  Text,
};

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
  /** The WeChat identity the proof vouches for (`appid:openid`), when the shop gave one. */
  wxmp?: string;
}

/**
 * The storage key of a conversation. Each scene has its own prefix and ids cannot contain `:`
 * (validate.ts), so no id a client sends names a conversation of another scene or of other users:
 * private `p:<larger id>:<smaller id>`, group `g:<group id>`, CS `c:<team id>:<customer id>`, system
 * `s:<system sender>:<user id>`.
 */
export function conversationKey(scene: string, a: string, b: string): string {
  if (scene === Scene.PRIVATE) return `p:${privatePair(a, b)}`;
  if (scene === Scene.GROUP) return `g:${b}`;
  if (scene === Scene.CS) return `c:${a}:${b}`;
  // A system conversation: the system sender (a) and the one user it writes to (b).
  if (scene === Scene.SYSTEM) return `s:${a}:${b}`;
  throw new RequestError(400, Text.SCENE_TYPES);
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
