import { currentRoute } from '@/core/navigation';
import type { AnyMessage, GroupMessage, Notification as PushNotification } from '@/messaging';
import Taro from '@tarojs/taro';
import { describeMessage } from './describe';
import { chatPlatform } from './platform';
import { CHAT_PAGES } from './routes';

/** The messaging.md §5 limits of a notification: title at most 32 characters, body at most 50. */
export const NOTIFICATION_TITLE_MAX = 32;
export const NOTIFICATION_BODY_MAX = 50;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The notification a sent message carries for receivers who are away: the group's name (or, in a private
 * chat, the sender's) as the title, and "sender: preview" as the body, within the §5 limits.
 */
export function notificationFor(
  scene: 'private' | 'group',
  text: string,
  conversationName: string,
  senderName: string,
): PushNotification {
  const preview = text.trim() || 'New message';
  const title = scene === 'group' ? conversationName || 'Group chat' : senderName || 'New message';
  const body = scene === 'group' ? `${senderName}: ${preview}` : preview;
  return { title: clip(title, NOTIFICATION_TITLE_MAX), body: clip(body, NOTIFICATION_BODY_MAX) };
}

export interface NotificationTarget {
  url: string;
  params: { to: string };
}

/**
 * Where tapping a message's notification leads (shop-app.md §2): a group message to /pages/groupChat with
 * the group id in `to`, a private message to the private chat with the sender.
 */
export function notificationTarget(message: AnyMessage): NotificationTarget | null {
  const scene = message.scene();
  if (scene === 'group') return { url: CHAT_PAGES.groupChat, params: { to: (message as GroupMessage).groupId } };
  if (scene === 'private') return { url: CHAT_PAGES.privateChat, params: { to: message.senderId } };
  return null;
}

/** True when the page on screen is already this conversation. */
function showing(target: NotificationTarget): boolean {
  const { path, query } = currentRoute();
  return path === target.url && query.to === target.params.to;
}

/** How long the in-app notice of a message stays up where no system notification can be shown. */
export const IN_APP_NOTICE_MS = 4000;

/**
 * A message that arrives while its conversation is not on screen is shown as a system notification where the
 * platform has them and the user allowed them (H5: a browser notification; tapping it opens the conversation);
 * otherwise (the mini-program, or notifications not allowed) as an in-app notice over whatever page is open.
 * Answers how it was shown, or null when it was not (the user's own message, a recall, the conversation on screen).
 */
export function notifyIncoming(
  message: AnyMessage,
  me: string,
  open: (target: NotificationTarget) => void,
  names: { conversation: string; sender: string },
): 'system' | 'in-app' | null {
  if (message.senderId === me || message.recalled) return null;
  const target = notificationTarget(message);
  if (!target || showing(target)) return null;
  const scene = message.scene() === 'group' ? 'group' : 'private';
  const { title, body } = notificationFor(scene, describeMessage(message, ''), names.conversation, names.sender);
  if (chatPlatform.notify({ title, body, tag: `${target.url}?to=${target.params.to}` }, () => open(target))) {
    return 'system';
  }
  Promise.resolve(
    Taro.showToast({
      title: clip(`${title}: ${body}`, NOTIFICATION_BODY_MAX),
      icon: 'none',
      duration: IN_APP_NOTICE_MS,
    }),
  ).catch(() => undefined);
  return 'in-app';
}

/** The WeChat template a chat message carries (GoEasy's wxmpTemplateMsg), opening the conversation. */
export interface ChatTemplateMessage {
  template_id: string;
  miniprogram: { appid: string; pagepath: string };
  data: Record<string, { value: string }>;
}

/** WeChat's limit for a template's `thing` field: 20 characters. */
const TEMPLATE_THING_MAX = 20;

/**
 * The template message for receivers who are offline (the messaging server sends it only to them): the
 * conversation's name or the sender's and a preview, and the page path into the conversation as the receiver sees
 * it (a group's chat; in a private chat, the chat with the sender).
 */
export function templateMessageFor(
  template: { templateId: string; appid: string },
  scene: 'private' | 'group',
  to: { id: string; me: string },
  text: string,
  conversationName: string,
  senderName: string,
): ChatTemplateMessage {
  const { title, body } = notificationFor(scene, text, conversationName, senderName);
  const pagepath = scene === 'group' ? `${CHAT_PAGES.groupChat}?to=${to.id}` : `${CHAT_PAGES.privateChat}?to=${to.me}`;
  return {
    template_id: template.templateId,
    miniprogram: { appid: template.appid, pagepath },
    data: { thing1: { value: clip(title, TEMPLATE_THING_MAX) }, thing2: { value: clip(body, TEMPLATE_THING_MAX) } },
  };
}
