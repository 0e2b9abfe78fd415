/**
 * messaging.md §5 and §9, and the server's own bounds on what the spec leaves open (`import * as Limits`, as
 * calls.ts says).
 */

export const PUBLISH_LENGTH = 10000;
export const TEXT_LENGTH = 2500;
export const TEXT_PAYLOAD_BYTES = 3072;
export const NOTIFICATION_TITLE = 32;
export const NOTIFICATION_BODY = 50;
export const ID_ARRAY = 300;
/** What the reference client's message says the id-array limit is (it is 300). */
export const ID_ARRAY_SAID = 500;
export const BATCH = 20;
export const USER_DATA_BYTES = 300;
/** Ids without the IM module (client), and every id on the server (storage keys and room names). */
export const ID_LENGTH = 60;
export const CHANNEL_LENGTH = 255;
/** Conversation data (`d`), CS team, agent and customer data: small JSON objects. */
export const CONVERSATION_DATA = 1024;
export const TEMPLATE_BYTES = 4096;
/** The largest packet a client may send (socket.io closes the connection otherwise). */
export const PACKET_BYTES = 100 * 1024;
export const FILE_BYTES = 524288000;
export const VIDEO_BYTES = 31457280;
/** Image thumbnails are at most this high (messaging.md §9). */
export const THUMBNAIL_HEIGHT = 200;
export const HISTORY_DEFAULT = 10;
export const HISTORY_MAX = 30;
export const HERE_NOW_DEFAULT = 10;
/** Per-conversation message cache and conversation list (client), conversations answered (server). */
export const CACHE_MESSAGES = 200;
export const CONVERSATIONS = 200;
/** Pushes remembered to drop a second delivery. */
export const RECENT_IDS = 300;
