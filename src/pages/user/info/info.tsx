import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadProfile } from '@/features/social/api';
import { Avatar, LinkRow, PageLoadState } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { Text, View } from '@tarojs/components';
import '@/features/social/social.css';
import './info.css';

export default function Info() {
  useRouteRecord();
  const user = useSignedInUser();
  const { state, data: profile, error, reload } = useLoad(() => loadProfile(), [user?.token], Boolean(user));
  if (!user) return null;
  if (state !== 'ready' || !profile) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      <View className="social-card info-page__head" onClick={() => void openPage(SOCIAL_PAGES.updateImg)}>
        <Avatar url={profile.avatar} name={profile.nickname} size="large" />
        <Text className="social-muted">Tap to change the photo</Text>
      </View>
      <View className="social-card">
        <LinkRow
          label="Photo"
          value={profile.avatar ? 'Set' : 'Not set'}
          onClick={() => void openPage(SOCIAL_PAGES.updateImg)}
        />
        <LinkRow label="Nickname" value={profile.nickname} onClick={() => void openPage(SOCIAL_PAGES.updateInfo)} />
        <LinkRow
          label="Bio"
          value={profile.bio ? `${profile.bio.slice(0, 18)}${profile.bio.length > 18 ? '…' : ''}` : 'Not set'}
          onClick={() => void openPage(SOCIAL_PAGES.updateInfo)}
        />
      </View>
    </View>
  );
}
