import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadProfile } from '@/features/social/api';
import { Avatar, FollowButton, LinkRow, PageLoadState, useFollowToggle } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { currentToken } from '@/state/customer';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import '@/features/social/social.css';
import './user.css';

/** A user's profile: counts, follow or unfollow, and the ways into their articles, albums and followers. */
export default function UserPage() {
  useRouteRecord();
  const userId = Number(useRouter().params.id) || undefined;
  const signedIn = currentToken() !== '';
  const needsLogin = userId === undefined && !signedIn;
  const { state, data: profile, error, setData, reload } = useLoad(() => loadProfile(userId), [userId], !needsLogin);
  const { busy, toggle } = useFollowToggle((_, following, followers) => {
    if (profile) setData({ ...profile, is_following: following, followers });
  });

  if (needsLogin) {
    return (
      <View className="social-page">
        <View className="social-card">
          <Text className="social-card__title">Sign in to see your profile</Text>
          <View className="social-button" onClick={() => void openPage('/pages/login/login')}>
            <Text>Sign in</Text>
          </View>
        </View>
      </View>
    );
  }
  if (state !== 'ready' || !profile) {
    return <PageLoadState state={state} error={error} onRetry={reload} />;
  }
  const id = String(profile.user_id);
  const counts: [string, number, () => void][] = [
    ['Followers', profile.followers, () => void openPage(SOCIAL_PAGES.allUser, { type: 'followers', id })],
    ['Following', profile.following, () => void openPage(SOCIAL_PAGES.allUser, { type: 'following', id })],
    ['Articles', profile.articles, () => void openPage(SOCIAL_PAGES.trends, { id })],
    ['Albums', profile.albums, () => void openPage(SOCIAL_PAGES.albums, { id })],
  ];

  return (
    <View className="social-page user-page">
      <View className="social-card user-page__head">
        <Avatar url={profile.avatar} name={profile.nickname} size="large" />
        <View className="user-page__who">
          <Text className="user-page__name">{profile.nickname || `User ${profile.user_id}`}</Text>
          <Text className="user-page__bio">{profile.bio || 'No bio yet'}</Text>
        </View>
        {!profile.is_me && (
          <FollowButton
            following={profile.is_following}
            busy={busy === profile.user_id}
            onClick={() => void toggle(profile.user_id, profile.is_following)}
          />
        )}
      </View>
      <View className="social-card user-page__counts">
        {counts.map(([label, value, open]) => (
          <View key={label} className="user-page__count" onClick={open}>
            <Text className="user-page__count-value">{value}</Text>
            <Text className="user-page__count-label">{label}</Text>
          </View>
        ))}
      </View>
      <View className="social-card">
        <LinkRow
          label={profile.is_me ? 'My articles' : 'Articles'}
          onClick={() => void openPage(SOCIAL_PAGES.trends, { id })}
        />
        <LinkRow
          label={profile.is_me ? 'My albums' : 'Albums'}
          onClick={() => void openPage(SOCIAL_PAGES.albums, { id })}
        />
        {!profile.is_me && (
          <LinkRow
            label="Send a message"
            onClick={() => void openPage('/pages/message/privateChat/privateChat', { to: id })}
          />
        )}
        {profile.is_me && <LinkRow label="Collections" onClick={() => void openPage(SOCIAL_PAGES.collections)} />}
        {profile.is_me && <LinkRow label="Edit profile" onClick={() => void openPage(SOCIAL_PAGES.info)} />}
        {profile.is_me && <LinkRow label="Find people" onClick={() => void openPage(SOCIAL_PAGES.addFriend)} />}
      </View>
    </View>
  );
}
