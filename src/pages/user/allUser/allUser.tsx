import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { PeopleList } from '@/features/social/PeopleList';
import type { PeopleList as ListKind } from '@/features/social/api';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { currentToken } from '@/state/customer';
import { Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect } from 'react';
import '@/features/social/social.css';

const TITLES: Record<ListKind, string> = { followers: 'Followers', following: 'Following', all: 'Everyone' };
const EMPTY: Record<ListKind, string> = {
  followers: 'No followers yet',
  following: 'Not following anyone yet',
  all: 'Nobody here yet',
};

/** Followers or following of a user (query id; default the signed-in user), or everyone (type=all). */
export default function AllUser() {
  useRouteRecord();
  const params = useRouter().params;
  const kind: ListKind = params.type === 'following' || params.type === 'all' ? params.type : 'followers';
  const userId = Number(params.id) || undefined;
  useEffect(() => {
    void Taro.setNavigationBarTitle({ title: TITLES[kind] });
  }, [kind]);

  const switchTo = (next: ListKind) => {
    if (next !== kind)
      void Taro.redirectTo({ url: `${SOCIAL_PAGES.allUser}?type=${next}${userId ? `&id=${userId}` : ''}` });
  };

  if (kind !== 'all' && userId === undefined && !currentToken()) {
    return (
      <View className="social-page">
        <View className="social-button" onClick={() => void openPage('/pages/login/login')}>
          <Text>Sign in to see your people</Text>
        </View>
      </View>
    );
  }
  return (
    <View className="social-page">
      {kind !== 'all' && (
        <View className="social-tabs">
          {(['followers', 'following'] as const).map((tab) => (
            <View
              key={tab}
              className={`social-tab ${tab === kind ? 'social-tab--on' : ''}`}
              onClick={() => switchTo(tab)}
            >
              <Text>{TITLES[tab]}</Text>
            </View>
          ))}
        </View>
      )}
      <PeopleList kind={kind} userId={userId} empty={EMPTY[kind]} />
    </View>
  );
}
