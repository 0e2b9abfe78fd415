import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { ChatView } from '@/features/chat/ChatView';
import { type Peer, useConversation } from '@/features/chat/use-conversation';
import { usePresence } from '@/features/chat/use-presence';
import { loadGroup } from '@/features/social/api';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useMemo, useState } from 'react';
import type { SocialGroup, UserCard } from '../../../types/api';

/** Group chat for the group whose id is in the query key `to` (where group notifications lead). */
export default function GroupChat() {
  useRouteRecord();
  const user = useSignedInUser();
  const to = String(useRouter().params.to ?? '');
  const [group, setGroup] = useState<(SocialGroup & { members: UserCard[] }) | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another group or another token
  useEffect(() => {
    if (!user || !/^\d+$/.test(to)) return;
    loadGroup(Number(to)).then(
      (loaded) => {
        setGroup(loaded);
        void Taro.setNavigationBarTitle({ title: `${loaded.name} (${loaded.member_count})` });
      },
      () => undefined,
    );
  }, [to, user?.token]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the peer is the same while the user, the group id and its name are
  const peer = useMemo<Peer | null>(
    () => (user && group ? { type: 'group', id: to, data: { name: group.name, avatar: '' } } : null),
    [user?.user_id, to, group?.name],
  );
  const conversation = useConversation(peer);
  const { onlineCount } = usePresence(peer);
  if (!user) return null;
  const names = Object.fromEntries(
    (group?.members ?? []).map((member) => [String(member.user_id), { name: member.nickname, avatar: member.avatar }]),
  );
  const presence =
    group && onlineCount !== null
      ? { on: onlineCount > 0, text: `${onlineCount} of ${group.member_count} members online` }
      : null;
  return <ChatView conversation={conversation} names={names} showReceipts={false} presence={presence} />;
}
