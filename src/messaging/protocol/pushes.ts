/** Server pushes, and the client's answers to the two that are acknowledged (`import * as Push`, as calls.ts says). */

export const MESSAGE = 'message';
export const IM_MESSAGE = 'imMessage';
export const USER_PRESENCE = 'userPresence';
export const GROUP_PRESENCE = 'groupPresence';
export const PRESENCE_EVENT = 'PS_PRESENCE_EVENT';
export const IM_READ = 'IM_MSG_READ';
export const IM_DELETED = 'IM_MSG_DELETED';
export const IM_RECALLED = 'IM_MSG_RECALLED';
export const CS_ONLINE_CHANGED = 'CS_ONLINE_CHANGED';
/** The client's acknowledgement of a `message` push. */
export const ACK = 'ack';
/** The client's acknowledgement of an `imMessage` push. */
export const IM_ACK = 'imAck';
