import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { ChatView } from '@/features/chat/ChatView';
import { type Peer, useConversation } from '@/features/chat/use-conversation';
import { usePresence } from '@/features/chat/use-presence';
import { loadProfile, refusal } from '@/features/social/api';
import { StateView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useMemo, useState } from 'react';
import type { SocialProfile } from '../../../../types/api';
import '@/features/social/social.css';

/** Private chat with the user whose id is in the query key `to`. */
export default function PrivateChat() {
  useRouteRecord();
  const user = useSignedInUser();
  const to = String(useRouter().params.to ?? '');
  const [other, setOther] = useState<SocialProfile | null>(null);
  const [failure, setFailure] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another user or another token
  useEffect(() => {
    if (!user || !/^\d+$/.test(to)) return;
    loadProfile(Number(to)).then(
      (profile) => {
        setOther(profile);
        void Taro.setNavigationBarTitle({ title: profile.nickname });
      },
      (reason: unknown) => setFailure(refusal(reason, 'This chat cannot be opened')),
    );
  }, [to, user?.token]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the peer is the same while the other user's id and name are
  const peer = useMemo<Peer | null>(
    () => (other ? { type: 'private', id: to, data: { name: other.nickname, avatar: other.avatar } } : null),
    [to, other?.nickname, other?.avatar],
  );
  const conversation = useConversation(peer);
  const { online } = usePresence(peer);
  if (!user) return null;
  if (failure || !/^\d+$/.test(to)) {
    return (
      <View className="social-page">
        <StateView state="error" error={failure || 'This link names nobody to chat with'} />
      </View>
    );
  }
  const names = other ? { [to]: { name: other.nickname, avatar: other.avatar } } : {};
  const presence =
    other && online !== null ? { on: online, text: `${other.nickname} is ${online ? 'online' : 'offline'}` } : null;
  return <ChatView conversation={conversation} names={names} showReceipts presence={presence} />;
}
