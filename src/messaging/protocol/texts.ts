import { MediaTypes } from './index';
import { ID_ARRAY_SAID } from './limits';

/**
 * Every error text either side shows, in the GoEasy 2.8.3 client's own wording (`import * as Text`, as calls.ts
 * says). Templates take the field name as the reference client words it.
 */

export const NO_PERMISSION = 'No permission';
export const HOST_UNREACHABLE = 'Host unreachable or timeout';
export const FAILED_TO_CONNECT = 'Failed to connect';
export const CONNECT_FIRST = 'Please connect first';
export const CALL_CONNECT_FIRST = 'Please call connect() first.';
export const ALREADY_CONNECTED = "It is already connected, don't try again until disconnect() is called.";
export const INVALID_APPKEY = 'Invalid appkey';
export const SUBSCRIBE_GROUP_FAILED = 'Failed to subscribe group message';
export const UNSUBSCRIBE_GROUP_FAILED = 'Failed to unsubscribe group message';
export const UNSUBSCRIBE_PRESENCE_FAILED = 'Failed to unsubscribe presence';
export const GROUP_HERE_NOW_FAILED = 'Failed to query online group users';
export const SENT_ONCE = 'Please create a new message, a message can only be sent once';
export const INVALID_MESSAGE = 'it is invalid message';
export const NOTHING_TO_DELETE = 'No message that could be deleted';
export const DELETE_CS_UNSUPPORTED = 'Delete CS message is not supported yet';
export const RECALL_CS_UNSUPPORTED = 'Recall CS message is not supported yet.';
export const RECALL_OTHERS = 'it is not allowed to recall messages sent by others';
export const PENDING_TOP_REMOVE = 'pending conversation cannot be topped or removed.';
export const CS_REMOVE_BEFORE_END = 'CS conversation can only be deleted after it ends';
export const NO_CONVERSATION = 'conversation does not exist.';
export const QUERY_TEAM_FIRST = 'please query team first.';
export const STORAGE_UNSUPPORTED = 'Only Ali OSS and Tencent COS are supported';
export const INTERNAL = 'Internal server error';
export const NOT_A_MEMBER = 'you are not a member of this group.';
export const NOT_AN_AGENT = 'you are not an agent of this team.';
export const BAD_PARAMETERS = 'bad parameters';
export const CHANNEL_REQUIRED = 'channel is required.';
export const CHANNEL_OR_CHANNELS = 'subscribe to either channel or channels, not both.';
export const PRESENCE_ENABLE_BOOLEAN = 'Subscription failed. presence.enable must be a boolean';
export const PRESENCE_NEEDS_ID =
  'Subscription failed. If presence is enable, the id must be specified when calling the connect method';
export const PRESENCE_NEEDS_CALLBACK = 'Subscription Presence failed. onPresence callback function is required';
export const ID_TYPE = 'TypeError: id requires number or string.';
export const DATA_OBJECT = 'TypeError: data requires an object.';
export const DATA_OBJECT_SHORT = 'TypeError: data requires object.';
export const ID_TOO_LONG = 'id over max length 60';
export const USER_DATA_TOO_LONG = 'user.data-length limit 300 byte.';
export const WXMP_APPID = 'wxmpId.appid is required.';
export const WXMP_OPENID = 'wxmpId.openid is required. requires string.';
export const NOTIFICATION_OBJECT = 'TypeError: notification requires an object.';
export const NOTIFICATION_SOUND = 'notification.sound must be a string';
export const NOTIFICATION_BADGE = 'notification.badge must be a string';
export const TEMPLATE_OBJECT = 'wxmpTemplateMsg must be an object.';
export const TEMPLATE_ID = 'template_id must be string.';
export const TEMPLATE_URL = 'url must be string';
export const TEMPLATE_MINIPROGRAM = 'miniprogram.appid and miniprogram.pagepath must be strings.';
export const TEMPLATE_DATA = 'data requires an object.';
export const MESSAGE_REQUIRED = 'message is required.';
export const MESSAGE_STRING = 'TypeError: message requires string.';
export const PUBLISH_TOO_LONG = 'Message over max length 10000.';
export const QOS = 'Qos must be 0 or 1.';
export const TEXT_EMPTY = 'text is empty';
export const TEXT_STRING = 'TypeError: text requires string.';
export const TEXT_TOO_LONG = 'Message text over max length 2500';
export const TEXT_PAYLOAD_TOO_LONG = 'message-length limit 3kb';
export const FILE_EMPTY = 'file is empty.';
export const FILE_TYPE = 'wrong file type.';
export const FILE_SIZE_ZERO = 'File size is 0.';
export const FILE_TOO_LARGE = 'message-length limit 30mib';
export const TYPE_EMPTY = 'type is empty.';
export const TYPE_STRING = 'type require a string';
export const PAYLOAD_EMPTY = 'payload is empty.';
export const PAYLOAD_TYPE = 'payload require object | string | number.';
export const TO_REQUIRED = 'message require property to.';
export const TO_OBJECT = 'TypeError: to requires an object.';
export const TO_DATA = 'TypeError: to.data requires an object.';
export const TO_TYPE = 'message require property to.type';
export const TO_ID = 'message require property to.id';
export const TO_ID_TYPE = 'to.id should be a string or number.';
export const TO_SELF = 'to.id can not be the same as your id.';
export const MESSAGES_ARRAY = 'messages requires non empty array';
export const BATCH_TOO_LARGE = 'The maximum number of messages is 20';
export const SAME_CONVERSATION = 'each message must be from the same friend or group';
export const TOP_BOOLEAN = 'top must be boolean.';
export const INCORRECT_CONVERSATION = 'Incorrect conversation object.';
export const CUSTOMER_REQUIRED = 'customer is required.';
export const EVENT_STRING = 'event require a string.';
export const EVENT_UNKNOWN = 'An event that is not defined';
export const CALLBACK_FUNCTION = 'callback must be a function';
export const SCENE_TYPES = 'incorrect type, must be: private,group,system,cs';
export const BADGE_INTEGER = 'badge must be an integer greater than or equal to 0.';
export const ARGUMENTS_FUNCTION = 'The arguments must be a function.';
export const NOTIFICATION_UNSUPPORTED = "The current environment doesn't support or allowNotification is false.";
export const required = (name: string) => ` ${name} is required.`;
export const stringOrNumber = (name: string) => `TypeError: ${name} require string or number.`;
export const array = (name: string) => `TypeError: ${name} require array.`;
export const arrayTooLong = (name: string) => `${name} is over max length ${ID_ARRAY_SAID}.`;
export const itemStringOrNumber = (name: string) => `TypeError: ${name} item require string or number.`;
export const emptyItem = (name: string) => `${name} has empty item.`;
export const duplicate = (name: string) => `Duplicate element in ${name}`;
export const notificationText = (key: string, max: number) =>
  `notification.${key} must be a string of no more than ${max} characters`;
export const vendorOption = (vendor: string, key: string, kind: string) =>
  `notification.vendorOptions.${vendor}.${key} require a ${kind}`;
export const onlyTypes = (kind: string) =>
  `Only ${(MediaTypes as Record<string, readonly string[]>)[kind].join(',')} is supported ${kind}.`;
export const notSubscribed = (channel: string) => `channel[${channel}] is not subscribed`;
export const notAMessage = (index: number) => `message[${index}] is not a correct message`;
export const cannotDelete = (index: number) => `message[${index}] is 'sending' and cannot be deleted`;
export const cannotRecall = (index: number, status: string) =>
  `message[${index}] is '${status}' and cannot be recalled`;
export const alreadyRecalled = (index: number) => `message[${index}] has been recalled`;
export const unsupportedRequest = (event: string) => `Unsupported request: ${event}`;
