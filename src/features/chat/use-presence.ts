import { type GroupPresenceEvent, IM_EVENT, type UserPresenceEvent } from '@/messaging';
import { useEffect, useState } from 'react';
import { chatClient } from './client';
import { chatConnection } from './session';
import type { Peer } from './use-conversation';

/** The other user's status from a USER_PRESENCE event, or null when it is about someone else. */
export function userStatus(event: UserPresenceEvent, userId: string): boolean | null {
  return event.id === userId ? event.action === 'online' : null;
}

/** The group's online count from a GROUP_PRESENCE event, or null when it is about another group. */
export function groupCount(event: GroupPresenceEvent, groupId: string): number | null {
  return event.groupId === groupId && Number.isFinite(event.groupOnlineCount) ? event.groupOnlineCount : null;
}

/**
 * Presence for a conversation: whether the other user is online (private), or how many members are online
 * (group). Null until known. Watches the SDK's user or group presence while the conversation is open.
 */
export function usePresence(peer: Peer | null): { online: boolean | null; onlineCount: number | null } {
  const [online, setOnline] = useState<boolean | null>(null);
  const [onlineCount, setOnlineCount] = useState<number | null>(null);

  const type = peer?.type;
  const id = peer?.id ?? '';
  useEffect(() => {
    if (!type || !id) return undefined;
    let active = true;
    const onUser = (event: UserPresenceEvent) => {
      const status = userStatus(event, id);
      if (active && status !== null) setOnline(status);
    };
    const onGroup = (event: GroupPresenceEvent) => {
      const count = groupCount(event, id);
      if (active && count !== null) setOnlineCount(count);
    };
    chatConnection()
      .then(async (client) => {
        if (!active) return;
        if (type === 'group') client.im.on(IM_EVENT.GROUP_PRESENCE, onGroup);
        else client.im.on(IM_EVENT.USER_PRESENCE, onUser);
        if (type === 'group') {
          await client.im.subscribeGroupPresence({ groupIds: [id] });
          const counted = await client.im.groupOnlineCount({ groupId: id });
          const count = (counted.content as { onlineCount?: unknown } | undefined)?.onlineCount;
          if (active && typeof count === 'number') setOnlineCount(count);
        } else {
          await client.im.subscribeUserPresence({ userIds: [id] });
          const here = await client.im.hereNow({ userIds: [id] });
          const members = Array.isArray(here.content) ? (here.content as Array<{ id: string }>) : [];
          if (active) setOnline(members.some((member) => String(member.id) === id));
        }
      })
      .catch(() => undefined);
    return () => {
      active = false;
      try {
        const im = chatClient().im;
        if (type === 'group') im.off(IM_EVENT.GROUP_PRESENCE, onGroup);
        else im.off(IM_EVENT.USER_PRESENCE, onUser);
        const stop =
          type === 'group' ? im.unsubscribeGroupPresence({ groupId: id }) : im.unsubscribeUserPresence({ userId: id });
        stop.catch(() => undefined);
      } catch {
        // never connected: nothing to stop watching
      }
    };
  }, [type, id]);

  return { online, onlineCount };
}
