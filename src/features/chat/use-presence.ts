import { IM_EVENT } from '@/messaging';
import { useEffect, useState } from 'react';
import { chatClient, connectChat } from './client';
import type { Peer } from './use-conversation';

interface PresenceEvent {
  userId?: string;
  action?: string;
}

/** The other user's status from a USER_PRESENCE payload, or null when it is about someone else. */
export function userStatus(payload: unknown, userId: string): boolean | null {
  const events = (payload as { events?: PresenceEvent[] } | null)?.events;
  if (!Array.isArray(events)) return null;
  const mine = events.filter((event) => String(event.userId) === userId);
  const last = mine[mine.length - 1];
  return last ? last.action === 'online' : null;
}

/** The group's online count from a GROUP_PRESENCE payload, or null when it is about another group. */
export function groupCount(payload: unknown, groupId: string): number | null {
  const body = payload as { groupId?: unknown; userAmount?: unknown } | null;
  if (!body || String(body.groupId) !== groupId || typeof body.userAmount !== 'number') return null;
  return body.userAmount;
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
    const onUser = (payload: unknown) => {
      const status = userStatus(payload, id);
      if (active && status !== null) setOnline(status);
    };
    const onGroup = (payload: unknown) => {
      const count = groupCount(payload, id);
      if (active && count !== null) setOnlineCount(count);
    };
    const event = type === 'group' ? IM_EVENT.GROUP_PRESENCE : IM_EVENT.USER_PRESENCE;
    const listener = type === 'group' ? onGroup : onUser;
    connectChat()
      .then(async (client) => {
        if (!active) return;
        client.im.on(event, listener as never);
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
        im.off(event, listener as never);
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
