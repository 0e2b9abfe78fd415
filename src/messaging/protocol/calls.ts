/**
 * Requests: an emit with an ack. Imported as a namespace (`import * as Call from './protocol/calls'`, then
 * `Call.AUTHORIZE`): separate constants rather than one object, so a bundle keeps only the names it uses, under
 * short names (an object's keys stay spelled out at every use).
 */

export const AUTHORIZE = 'authorize';
export const MANUAL_DISCONNECT = 'manualDisconnect';
export const PUBLISH = 'publish';
export const SUBSCRIBE = 'subscribe';
export const UNSUBSCRIBE = 'unsubscribe';
export const HISTORY = 'historyMessages';
export const PRESENCE_SUBSCRIBE = 'PUBSUB_PRESENCE_SUBSCRIBE';
export const PRESENCE_UNSUBSCRIBE = 'PUBSUB_PRESENCE_UNSUBSCRIBE';
export const PRESENCE_HERE_NOW = 'PUBSUB_PRESENCE_HERENOW';
export const SET_IOS_BADGE = 'SET_IOS_BADGE';
export const UPLOAD_TOKEN = 'uploadToken';
export const PUBLISH_IM = 'publishIM';
export const IM_HISTORY = 'IM_HISTORY';
export const IM_HISTORY_CHANGE = 'IM_HISTORY_CHANGE';
export const IM_MARK_AS_READ = 'IM_MARK_AS_READ';
export const IM_RECALL = 'IM_RECALL_MESSAGE';
export const IM_DELETE = 'IM_DELETE_MESSAGE';
export const LAST_CONVERSATIONS = 'imLastConversations';
export const TOP_CONVERSATION = 'topConversation';
export const REMOVE_CONVERSATION = 'removeConversation';
export const IM_DATA = 'imData';
export const SUBSCRIBE_GROUPS = 'subscribeGroups';
export const UNSUBSCRIBE_GROUP = 'unsubscribeGroup';
export const SUBSCRIBE_GROUP_PRESENCE = 'subscribeGroupPresence';
export const UNSUBSCRIBE_GROUP_PRESENCE = 'unsubscribeGroupPresence';
export const SUBSCRIBE_USER_PRESENCE = 'subscribeUserPresence';
export const UNSUBSCRIBE_USER_PRESENCE = 'unsubscribeUserPresence';
export const IM_HERE_NOW = 'imHereNow';
export const IM_GROUP_HERE_NOW = 'imGroupHereNow';
export const IM_GROUP_ONLINE_COUNT = 'imGroupOnlineCount';
export const CS_ONLINE = 'CS_ONLINE';
export const CS_OFFLINE = 'CS_OFFLINE';
export const CS_MY_TEAMS = 'CS_MY_TEAMS';
export const CS_AGENTS = 'CS_AGENTS';
export const CS_PENDING_CONVERSATION = 'CS_PENDING_CONVERSATION';
export const CS_ACCEPT = 'CS_ACCEPT';
export const CS_END = 'CS_END';
export const CS_TRANSFER = 'CS_TRANSFER';
export const CS_CUSTOMER_STATUS = 'CS_CUSTOMER_STATUS';
export const CS_LIVE_SESSION = 'CS_LIVE_SESSION';
export const CS_QUIT_LIVE = 'CS_QUIT_LIVE';
