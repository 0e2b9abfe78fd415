import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { ChatView } from '@/features/chat/ChatView';
import { type Peer, useConversation } from '@/features/chat/use-conversation';
import { usePresence } from '@/features/chat/use-presence';
import { loadGroup, refusal } from '@/features/social/api';
import { StateView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useMemo, useState } from 'react';
import type { SocialGroup, UserCard } from '../../../types/api';
import '@/features/social/social.css';

/** Group chat for the group whose id is in the query key `to` (where group notifications lead). */
export default function GroupChat() {
  useRouteRecord();
  const user = useSignedInUser();
  const to = String(useRouter().params.to ?? '');
  const [group, setGroup] = useState<(SocialGroup & { members: UserCard[] }) | null>(null);
  const [failure, setFailure] = useState('');
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another group, another token or Try again
  useEffect(() => {
    if (!user || !/^\d+$/.test(to)) return;
    setFailure('');
    loadGroup(Number(to)).then(
      (loaded) => {
        setGroup(loaded);
        void Taro.setNavigationBarTitle({ title: `${loaded.name} (${loaded.member_count})` });
      },
      // Without its group the chat cannot open (it would wait for ever): say so, with a way to try again.
      (reason: unknown) => setFailure(refusal(reason, 'This group chat cannot be opened')),
    );
  }, [to, user?.token, attempt]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the peer is the same while the user, the group id and its name are
  const peer = useMemo<Peer | null>(
    () => (user && group ? { type: 'group', id: to, data: { name: group.name, avatar: '' } } : null),
    [user?.user_id, to, group?.name],
  );
  const conversation = useConversation(peer);
  const { onlineCount } = usePresence(peer);
  if (!user) return null;
  if (failure || !/^\d+$/.test(to)) {
    return (
      <View className="social-page">
        <StateView
          state="error"
          error={failure || 'This link names no group'}
          onRetry={failure ? () => setAttempt((times) => times + 1) : undefined}
        />
      </View>
    );
  }
  const names = Object.fromEntries(
    (group?.members ?? []).map((member) => [String(member.user_id), { name: member.nickname, avatar: member.avatar }]),
  );
  const presence =
    group && onlineCount !== null
      ? { on: onlineCount > 0, text: `${onlineCount} of ${group.member_count} members online` }
      : null;
  return <ChatView conversation={conversation} names={names} showReceipts={false} presence={presence} />;
}
