import { openPage } from '@/core/navigation';
import { post } from '@/core/request';
import GoEasy, {
  type AnyMessage,
  ConnectionStatus,
  type ConversationDTO,
  type GroupMessage,
  IM_EVENT,
} from '@/messaging';
import { currentUser } from '@/state/customer';
import { appStore } from '@/state/store';
import { unreadTotalAtom } from '@/state/unread';
import { toBadgeNumber } from '@/utils/format';
import Taro from '@tarojs/taro';
import { describeMessage } from './describe';
import { type NotificationTarget, notifyIncoming } from './notify';
import { chatPlatform } from './platform';

/** The messaging server: the build's host, else (H5) this site's own origin, else the API server. */
export function messagingHost(): string {
  if (LENSMATE_MESSAGING_HOST) return LENSMATE_MESSAGING_HOST;
  if (LENSMATE_API_BASE) return LENSMATE_API_BASE;
  return chatPlatform.siteOrigin();
}

export function chatClient(): GoEasy {
  return GoEasy.getInstance({
    host: messagingHost(),
    appkey: LENSMATE_MESSAGING_APPKEY,
    modules: ['im'],
    ...(LENSMATE_MESSAGING_TLS ? { forceTLS: LENSMATE_MESSAGING_TLS === 'true' } : {}),
  });
}

/** The template chat messages carry for offline receivers, as the shop said at the last connect; null for none. */
let template: { templateId: string; appid: string } | null = null;

export function chatTemplate(): { templateId: string; appid: string } | null {
  return template;
}

/** A connection made for a user who signed out (or was replaced) while it was being made: it was dropped. */
export class ChatSessionEnded extends Error {
  constructor() {
    super('Signed out');
    this.name = 'ChatSessionEnded';
  }
}

let connecting: Promise<GoEasy> | null = null;
/** The connection under way while it waits for its identity proof (a request lost to the network never settles). */
let waitingForProof: object | null = null;
/** Which attempt `connecting` is. */
let connectingTicket: object | null = null;

/**
 * A connection left waiting for its identity proof is given up: when the network came back (the proof was lost with
 * it and its request never settles), so that the next connectChat() asks again, and when another user signs in
 * meanwhile. A proof that still arrives connects nobody. True when there was one.
 */
export function abandonLostConnect(): boolean {
  if (!waitingForProof) return false;
  if (connectingTicket === waitingForProof) {
    connecting = null;
    connectingTicket = null;
  }
  abandoned.add(waitingForProof);
  waitingForProof = null;
  return true;
}

/** Attempts given up while they waited for their proof: one whose proof arrives after all connects nobody. */
const abandoned = new WeakSet<object>();
let connectingAs = '';
let connectedAs = '';

// GoEasy's public status: a reconnect with a new server session (`expired-reconnected` inside) reads `reconnected`.
const isUp = (status: ConnectionStatus) =>
  status === ConnectionStatus.CONNECTED || status === ConnectionStatus.RECONNECTED;

/**
 * Connects the signed-in user once (the identity proof comes from POST /api/messaging/token) and keeps the
 * unread total in storage for the tab badge. The app's chat session (./session) calls it on sign-in and on a
 * user switch; pages reach the same connection through the session's `chatConnection()`. A connection that
 * is still being made for a user who has since signed out or been replaced is dropped once it is up.
 */
export async function connectChat(): Promise<GoEasy> {
  const user = currentUser();
  if (!user?.token) throw new Error('Sign in to chat');
  const client = chatClient();
  const me = String(user.user_id);
  if (connectedAs === me && isUp(client.getConnectionStatus())) return client;
  // Several hooks of one page (messages, presence) connect at once: they share the connection under way.
  if (connecting && connectingAs === me) return connecting;
  const previous = connecting;
  connectingAs = me;
  const ticket = {};
  const attempt = (async () => {
    // Another user's connection still waiting for its proof has nothing to undo: it is given up, not waited for (a
    // proof lost with the network would hold this one until the app restarts). One further on finishes (and, no
    // longer wanted, drops itself) first.
    if (previous && !abandonLostConnect()) await previous.catch(() => undefined);
    if (connectedAs !== '' && connectedAs !== me) {
      connectedAs = '';
      await client.disconnect().catch(() => undefined);
    }
    const status = client.getConnectionStatus();
    if (!isUp(status) && status !== ConnectionStatus.CONNECTING && status !== ConnectionStatus.RECONNECTING) {
      waitingForProof = ticket;
      const token = await post('/api/messaging/token', {}, { loading: false }).finally(() => {
        if (waitingForProof === ticket) waitingForProof = null;
      });
      if (abandoned.has(ticket)) throw new ChatSessionEnded();
      template = token.wxmpTemplate;
      await client.connect({
        id: token.userId,
        otp: token.otp,
        // Signed in with WeChat in the mini-program: offline messages can reach the user as WeChat notifications.
        ...(token.wxmpId ? { wxmpId: token.wxmpId } : {}),
        data: { name: user.nickname || user.email, avatar: user.avatar },
      });
      listen(client);
    }
    connectedAs = me;
    if (signedInId() !== me) {
      await disconnectChat();
      throw new ChatSessionEnded();
    }
    // The unread total for the badge: the conversation list, loaded once, then kept by CONVERSATIONS_UPDATED.
    client.im
      .latestConversations()
      .then(({ content }) => {
        if (connectedAs === me) showUnread(content.unreadTotal);
      })
      .catch(() => undefined);
    return client;
  })();
  connecting = attempt;
  connectingTicket = ticket;
  try {
    return await attempt;
  } finally {
    if (connecting === attempt) {
      connecting = null;
      connectingTicket = null;
    }
  }
}

function signedInId(): string {
  const user = currentUser();
  return user?.token ? String(user.user_id) : '';
}

/** Ends the connection (log out): nobody is connected, and the badge is cleared. */
export async function disconnectChat(): Promise<void> {
  connectedAs = '';
  showUnread(0);
  const status = chatClient().getConnectionStatus();
  if (status === ConnectionStatus.DISCONNECTED) return;
  await chatClient()
    .disconnect()
    .catch(() => undefined);
}

let listening = false;

/** Once per app: the unread badge and notifications follow whoever is connected. */
function listen(client: GoEasy): void {
  if (listening) return;
  listening = true;
  // The server refuses a reconnect whose proof has expired (away longer than its session window) or was
  // revoked: connect again, once, with a fresh proof from the shop (none once signed out, so it stays off).
  client.onConnectionStatusChanged((status) => {
    if (status !== ConnectionStatus.CONNECT_FAILED || connectedAs === '') return;
    connectedAs = '';
    connectChat().catch(() => undefined);
  });
  client.im.on(IM_EVENT.CONVERSATIONS_UPDATED, (result) => showUnread(result.unreadTotal));
  // The conversation's name comes from the SDK's conversation list (cached once loaded).
  const incoming = (message: AnyMessage) => {
    const group = message.scene() === 'group';
    const key = group ? `group:${(message as GroupMessage).groupId}` : `private:${message.senderId}`;
    client.im
      .latestConversations()
      .then(
        ({ content }) =>
          content.conversations.map((dto) => toRow(dto, connectedAs)).find((row) => row.key === key)?.name ?? '',
      )
      .catch(() => '')
      .then((conversation) => {
        const sender = group ? String((message as GroupMessage).senderData?.name ?? '') : conversation;
        notifyIncoming(message, connectedAs, openTarget, { conversation, sender });
      });
  };
  client.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, incoming);
  client.im.on(IM_EVENT.GROUP_MESSAGE_RECEIVED, incoming);
}

function openTarget(target: NotificationTarget): void {
  void openPage(target.url, target.params);
}

/** Keeps the unread count under `unreadTotal` and, where the platform has a tab bar, as its badge. */
export function showUnread(total: unknown): void {
  const count = toBadgeNumber(total);
  appStore.set(unreadTotalAtom, count);
  const tabBarCall =
    count > 0
      ? Taro.setTabBarBadge({ index: 1, text: count > 99 ? '99+' : String(count) })
      : Taro.removeTabBarBadge({ index: 1 });
  Promise.resolve(tabBarCall).catch(() => undefined);
}

/**
 * The names of the user's groups as the shop knows them (the chat session's group list, a group chat opened):
 * a group conversation that began while connected carries no name of its own in the SDK's list.
 */
const groupNames = new Map<string, string>();

export function rememberGroupName(groupId: string, name: string): void {
  if (name) groupNames.set(groupId, name);
}

export interface ConversationRow {
  key: string;
  kind: 'private' | 'group';
  id: string;
  name: string;
  avatar: string;
  preview: string;
  time: number;
  unread: number;
  top: boolean;
  dto: ConversationDTO;
}

export function toRow(dto: ConversationDTO, myId: string): ConversationRow {
  const kind = dto.type === 'group' ? 'group' : 'private';
  const id = String((kind === 'group' ? dto.groupId : dto.userId) ?? dto.id ?? '');
  const data = (dto.data ?? {}) as { name?: string; avatar?: string };
  return {
    key: `${kind}:${id}`,
    kind,
    id,
    name: data.name || (kind === 'group' ? groupNames.get(id) || `Group ${id}` : `User ${id}`),
    avatar: data.avatar || '',
    preview: describeMessage(dto.lastMessage, myId),
    time: dto.lastMessage?.timestamp ?? 0,
    unread: dto.unread,
    top: dto.top,
    dto,
  };
}
