import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { NoticeList } from '@/features/social/NoticeList';
import { View } from '@tarojs/components';
import '@/features/social/social.css';

export default function MessageFollowers() {
  useRouteRecord();
  const user = useSignedInUser();
  if (!user) return null;
  return (
    <View className="social-page">
      <NoticeList kind="followers" />
    </View>
  );
}
