import { type ConversationDTO, IM_EVENT } from '@/messaging';
import { currentUser } from '@/state/customer';
import { useEffect, useState } from 'react';
import { type ConversationRow, chatClient, showUnread, toRow } from './client';
import { chatConnection } from './session';
import { failureText } from './use-conversation';

/** The signed-in user's conversations, live: pinned first, then the newest. */
export function useConversations(enabled: boolean) {
  const [rows, setRows] = useState<ConversationRow[] | null>(null);
  const [unreadTotal, setUnreadTotal] = useState(0);
  const [error, setError] = useState('');
  const me = String(currentUser()?.user_id ?? '');

  useEffect(() => {
    if (!enabled) return undefined;
    let active = true;
    const apply = (result: { unreadTotal: number; conversations: ConversationDTO[] }) => {
      if (!active) return;
      setRows(
        result.conversations
          .filter((dto) => dto.type === 'private' || dto.type === 'group')
          .map((dto) => toRow(dto, me)),
      );
      setUnreadTotal(result.unreadTotal);
      showUnread(result.unreadTotal);
    };
    chatConnection()
      .then(async (client) => {
        client.im.on(IM_EVENT.CONVERSATIONS_UPDATED, apply);
        const result = await client.im.latestConversations();
        apply(result.content);
      })
      .catch((reason: unknown) => {
        if (active)
          setError(failureText(reason, reason instanceof Error ? reason.message : 'Could not connect to chat'));
      });
    return () => {
      active = false;
      try {
        chatClient().im.off(IM_EVENT.CONVERSATIONS_UPDATED, apply);
      } catch {
        // never connected
      }
    };
  }, [enabled, me]);

  const top = (row: ConversationRow) => chatClient().im.topConversation({ conversation: row.dto, top: !row.top });
  const remove = (row: ConversationRow) => chatClient().im.removeConversation({ conversation: row.dto });
  return { rows, unreadTotal, error, top, remove };
}
