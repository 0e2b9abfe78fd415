import { goHome, goTo, openPage, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { MINE_PAGE, type NamedTarget, USER_REVIEW_PAGE } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { MineOverview } from '@/features/account/MineOverview';
import { logOut as endSession } from '@/features/account/auth';
import { SETTING_PAGE } from '@/features/account/profile';
import { useCartLineCount } from '@/features/cart/CartButton';
import { CHAT_PAGES } from '@/features/chat/routes';
import { CS_PAGES } from '@/features/cs/routes';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { userAtom } from '@/state/customer';
import { unreadTotalAtom } from '@/state/unread';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { Image, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import './mine.css';

interface Entry {
  key: string;
  title: string;
  hint: string;
  open: () => unknown;
  badge?: number;
}

function namedEntry(target: NamedTarget, title: string, hint: string): Entry {
  return { key: target, title, hint, open: () => goTo(target) };
}

function pageEntry(path: string, title: string, hint: string, badge?: number): Entry {
  return { key: path, title, hint, open: () => openPage(path), badge };
}

const ACCOUNT_ENTRIES: Entry[] = [
  namedEntry('addressList', 'Addresses', 'Where your glasses are delivered'),
  namedEntry('myPrescriptionList', 'Prescriptions', 'Saved prescriptions for your lenses'),
  namedEntry('userBasic', 'Profile', 'Name, photo and bio'),
  namedEntry('changePassword', 'Change password', 'Keep your account safe'),
];

function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

function EntryRow({ entry }: { entry: Pick<Entry, 'title' | 'hint' | 'badge' | 'open'> }) {
  return (
    <View className="mine__entry" onClick={() => void entry.open()}>
      <View className="mine__entry-text">
        <Text className="mine__entry-title">{entry.title}</Text>
        <Text className="mine__entry-hint">{entry.hint}</Text>
      </View>
      {entry.badge !== undefined && entry.badge > 0 && <Text className="mine__badge">{badgeText(entry.badge)}</Text>}
      <View className="mine__chevron" />
    </View>
  );
}

export default function Mine() {
  useRouteRecord();
  const user = useAtomValue(userAtom);
  const unread = useAtomValue(unreadTotalAtom);
  const cartLines = useCartLineCount();

  useEffect(() => {
    requireLogin({ path: MINE_PAGE, query: {} });
  }, []);

  const logOut = () => {
    endSession();
    void goHome();
  };

  const shopEntries: Entry[] = [
    { ...namedEntry('cart', 'Cart', 'Frames and lenses waiting for checkout'), badge: cartLines },
    namedEntry('orderList', 'Orders', 'Track, pay and review your orders'),
    pageEntry(USER_REVIEW_PAGE, 'Reviews', 'What shoppers say about our frames'),
    pageEntry(CS_PAGES.customer, 'Support chat', 'Ask us about frames, lenses and orders'),
  ];
  const socialEntries: Entry[] = [
    pageEntry(CHAT_PAGES.message, 'Messages', 'Chats with people and groups', unread),
    pageEntry(SOCIAL_PAGES.main, 'Community', 'Articles, albums, tags and people'),
  ];

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
            {shopEntries.map((entry) => (
              <EntryRow key={entry.key} entry={entry} />
            ))}
          </View>
          <View className="mine__card">
            {socialEntries.map((entry) => (
              <EntryRow key={entry.key} entry={entry} />
            ))}
          </View>
          <View className="mine__card">
            {ACCOUNT_ENTRIES.map((entry) => (
              <EntryRow key={entry.key} entry={entry} />
            ))}
            <EntryRow
              entry={{
                title: 'Settings',
                hint: 'Profile, password and log out',
                open: () => Taro.navigateTo({ url: SETTING_PAGE }),
              }}
            />
          </View>
          {user.is_admin && (
            <View className="mine__card">
              <EntryRow entry={{ title: 'Admin', hint: 'Edit glasses and articles', open: () => goTo('admin') }} />
              <EntryRow
                entry={{
                  title: 'Support desk',
                  hint: 'Answer customers as an agent',
                  open: () => Taro.navigateTo({ url: CS_PAGES.agent }),
                }}
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
