import { post } from '@/core/request';
import type GoEasy from '@/messaging';
import { userAtom } from '@/state/customer';
import { networkAtom } from '@/state/network';
import { appStore } from '@/state/store';
import { ChatSessionEnded, abandonLostConnect, connectChat, disconnectChat, rememberGroupName } from './client';

/**
 * The app's one messaging connection for the signed-in user: connected at sign-in (or at start with a stored
 * session), disconnected at log out, connected again as the other user on a switch. It carries the unread
 * badge and the notifications on every page; chat pages use it through `chatConnection()`.
 */

let started = false;
let following = '';

function connect(id: string): void {
  connectChat()
    .then((client) => subscribeGroups(client, id))
    .catch((failure: unknown) => {
      if (!(failure instanceof ChatSessionEnded)) console.error('Chat connection failed', failure);
    });
}

function follow(): void {
  const user = appStore.get(userAtom);
  const id = user?.token ? String(user.user_id) : '';
  if (id === following) return;
  following = id;
  if (id) connect(id);
  else void disconnectChat();
}

let restored = 0;

/** Back online: a connection whose identity proof was lost with the network is made again. */
function reconnectIfLost(): void {
  const now = appStore.get(networkAtom).restored;
  if (now === restored) return;
  restored = now;
  if (following && abandonLostConnect()) connect(following);
}

/**
 * A group's messages reach a member only through a subscription: the session subscribes the user's groups, so
 * that their messages count and notify on every page, not only once the group's chat was opened.
 */
async function subscribeGroups(client: GoEasy, id: string): Promise<void> {
  const groups = (await post('/api/social/groups', {}, { loading: false })).filter((group) => group.is_member);
  for (const group of groups) rememberGroupName(String(group.group_id), group.name);
  const groupIds = groups.map((group) => String(group.group_id));
  if (following !== id || groupIds.length === 0) return;
  await client.im.subscribeGroup({ groupIds });
}

/** Starts following the signed-in user (once per app). */
export function startChatSession(): void {
  if (started) return;
  started = true;
  appStore.sub(userAtom, follow);
  restored = appStore.get(networkAtom).restored;
  appStore.sub(networkAtom, reconnectIfLost);
  follow();
}

/**
 * The app's connection for the signed-in user, for a chat page: the one the session made (or is making).
 * A chat page opened before the session was loaded starts it.
 */
export function chatConnection(): Promise<GoEasy> {
  startChatSession();
  return connectChat();
}
