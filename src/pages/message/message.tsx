import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import type { ConversationRow } from '@/features/chat/client';
import { CHAT_PAGES } from '@/features/chat/routes';
import { failureText } from '@/features/chat/use-conversation';
import { useConversations } from '@/features/chat/use-conversations';
import { Avatar } from '@/features/social/components';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import '@/features/social/social.css';
import './message.css';

function clock(time: number): string {
  if (!time) return '';
  const date = new Date(time);
  const today = new Date();
  if (date.toDateString() === today.toDateString())
    return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return `${date.getMonth() + 1}/${date.getDate()}`;
}

/** The conversation list: pinned first, unread counts, pin or remove, and the ways to notifications and groups. */
export default function Message() {
  useRouteRecord();
  const user = useSignedInUser();
  const { rows, unreadTotal, error, top, remove } = useConversations(Boolean(user));
  const [open, setOpen] = useState<string | null>(null);
  if (!user) return null;

  const act = async (work: Promise<unknown>, fallback: string) => {
    setOpen(null);
    try {
      await work;
    } catch (reason) {
      void Taro.showToast({ title: failureText(reason, fallback), icon: 'none', duration: 2500 });
    }
  };
  const openConversation = (row: ConversationRow) =>
    void openPage(row.kind === 'group' ? CHAT_PAGES.groupChat : CHAT_PAGES.privateChat, { to: row.id });

  return (
    <View className="social-page">
      <View className="social-card message__shortcuts">
        <View className="message__shortcut" onClick={() => void openPage(CHAT_PAGES.notices)}>
          <Text className="message__shortcut-title">Notifications</Text>
        </View>
        <View className="message__shortcut" onClick={() => void openPage(CHAT_PAGES.groups)}>
          <Text className="message__shortcut-title">Groups</Text>
        </View>
        <View className="message__shortcut" onClick={() => void openPage('/pages/addfriend/addfriend')}>
          <Text className="message__shortcut-title">Find people</Text>
        </View>
      </View>
      {error ? <StateView state="error" error={error} /> : null}
      {!error && rows === null ? <StateView state="loading" /> : null}
      {rows !== null && rows.length === 0 ? (
        <EmptyView title="No conversations yet" hint="Open someone's profile and tap Send a message." />
      ) : null}
      {rows !== null && rows.length > 0 && (
        <View className="social-card">
          <Text className="social-muted">{unreadTotal > 0 ? `${unreadTotal} unread` : 'All read'}</Text>
          {rows.map((row) => (
            <View key={row.key} className={`message__row ${row.top ? 'message__row--top' : ''}`}>
              <View className="message__main" onClick={() => openConversation(row)}>
                <Avatar url={row.avatar} name={row.name} />
                <View className="message__text">
                  <View className="message__line">
                    <Text className="message__name">{row.name}</Text>
                    <Text className="message__time">{clock(row.time)}</Text>
                  </View>
                  <View className="message__line">
                    <Text className="message__preview">{row.preview}</Text>
                    {row.unread > 0 && <Text className="message__badge">{row.unread > 99 ? '99+' : row.unread}</Text>}
                  </View>
                </View>
              </View>
              <View className="message__more" onClick={() => setOpen(open === row.key ? null : row.key)}>
                <Text>⋯</Text>
              </View>
              {open === row.key && (
                <View className="message__actions">
                  <Text className="message__action" onClick={() => void act(top(row), 'Could not pin')}>
                    {row.top ? 'Unpin' : 'Pin to top'}
                  </Text>
                  <Text
                    className="message__action message__action--danger"
                    onClick={() => void act(remove(row), 'Could not remove')}
                  >
                    Remove
                  </Text>
                </View>
              )}
            </View>
          ))}
        </View>
      )}
    </View>
  );
}
