import { goHome, goTo, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { MINE_PAGE, type NamedTarget } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { MineOverview } from '@/features/account/MineOverview';
import { logOut as endSession } from '@/features/account/auth';
import { SETTING_PAGE } from '@/features/account/profile';
import { CS_PAGES } from '@/features/cs/routes';
import { userAtom } from '@/state/customer';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { Image, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import './mine.css';

interface Entry {
  target: NamedTarget;
  title: string;
  hint: string;
}

const ENTRIES: Entry[] = [
  { target: 'addressList', title: 'Addresses', hint: 'Where your glasses are delivered' },
  { target: 'myPrescriptionList', title: 'Prescriptions', hint: 'Saved prescriptions for your lenses' },
  { target: 'userBasic', title: 'Profile', hint: 'Name, photo and bio' },
  { target: 'changePassword', title: 'Change password', hint: 'Keep your account safe' },
];

function EntryRow({ entry, onClick }: { entry: Pick<Entry, 'title' | 'hint'>; onClick: () => void }) {
  return (
    <View className="mine__entry" onClick={onClick}>
      <View className="mine__entry-text">
        <Text className="mine__entry-title">{entry.title}</Text>
        <Text className="mine__entry-hint">{entry.hint}</Text>
      </View>
      <View className="mine__chevron" />
    </View>
  );
}

export default function Mine() {
  useRouteRecord();
  const user = useAtomValue(userAtom);

  useEffect(() => {
    requireLogin({ path: MINE_PAGE, query: {} });
  }, []);

  const logOut = () => {
    endSession();
    void goHome();
  };

  const name = user?.nickname || user?.email || '';

  return (
    <View className="mine">
      {user && (
        <View>
          <View className="mine__header">
            {user.avatar ? (
              <Image className="mine__avatar" src={imageUrl(user.avatar)} mode="aspectFill" />
            ) : (
              <View className="mine__avatar mine__avatar--initial">
                <Text>{name.slice(0, 1).toUpperCase()}</Text>
              </View>
            )}
            <View className="mine__identity">
              <Text className="mine__name">{name}</Text>
              <Text className="mine__email">{user.email}</Text>
              {user.is_admin && <Text className="mine__role">Administrator</Text>}
            </View>
          </View>
          <MineOverview token={user.token} />
          <View className="mine__card">
            {ENTRIES.map((entry) => (
              <EntryRow key={entry.target} entry={entry} onClick={() => void goTo(entry.target)} />
            ))}
            <EntryRow
              entry={{ title: 'Settings', hint: 'Profile, password and log out' }}
              onClick={() => void Taro.navigateTo({ url: SETTING_PAGE })}
            />
          </View>
          {user.is_admin && (
            <View className="mine__card">
              <EntryRow
                entry={{ title: 'Admin', hint: 'Edit glasses and articles' }}
                onClick={() => void goTo('admin')}
              />
              <EntryRow
                entry={{ title: 'Support desk', hint: 'Answer customers as an agent' }}
                onClick={() => void Taro.navigateTo({ url: CS_PAGES.agent })}
              />
            </View>
          )}
          <View className="mine__logout" onClick={logOut}>
            <Text>Log out</Text>
          </View>
        </View>
      )}
      <PageTabBar current="mine" />
    </View>
  );
}
