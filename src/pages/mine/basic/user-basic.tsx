import { goTo } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { loginFailureMessage } from '@/features/account/auth';
import { type Profile, loadMyProfile, memberSince } from '@/features/account/profile';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { Image, Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import '@/ui/form/profile.css';

export default function UserBasic() {
  useRouteRecord();
  const user = useSignedInUser();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [failure, setFailure] = useState('');

  const token = user?.token;
  useEffect(() => {
    if (!token) return;
    loadMyProfile().then(setProfile, (reason: unknown) =>
      setFailure(loginFailureMessage(reason, 'Could not load your profile')),
    );
  }, [token]);

  if (!user) return null;
  const shown = profile ?? user;
  const name = shown.nickname || user.email;
  const rows: [string, string][] = [
    ['Nickname', shown.nickname || '—'],
    ['Email', user.email],
    ['Account', shown.is_admin ? 'Administrator' : 'Shopper'],
    ['Member since', memberSince(profile?.created_at) || '—'],
  ];

  return (
    <View className="user-basic">
      <View className="user-basic__head">
        {shown.avatar ? (
          <Image className="user-basic__avatar" src={imageUrl(shown.avatar)} mode="aspectFill" />
        ) : (
          <View className="user-basic__avatar user-basic__avatar--initial">
            <Text>{name.slice(0, 1).toUpperCase()}</Text>
          </View>
        )}
        <Text className="user-basic__name">{name}</Text>
        {profile?.bio ? <Text className="user-basic__bio">{profile.bio}</Text> : null}
      </View>
      {failure && <Text className="user-basic__failure">{failure}</Text>}
      <View className="user-basic__card">
        {rows.map(([label, value]) => (
          <View key={label} className="user-basic__row">
            <Text className="user-basic__label">{label}</Text>
            <Text className="user-basic__value">{value}</Text>
          </View>
        ))}
      </View>
      <View className="user-basic__card">
        <View className="user-basic__row user-basic__row--link" onClick={() => void goTo('changePassword')}>
          <Text className="user-basic__label">Change password</Text>
          <View className="user-basic__chevron" />
        </View>
      </View>
    </View>
  );
}
