import { goTo } from '@/core/navigation';
import { HOME_PAGE } from '@/core/routes';
import { unreadTotalAtom } from '@/state/unread';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtomValue } from 'jotai';
import type { TabKey } from './tabs';
import './tab-bar.css';

interface TabBarProps {
  current: TabKey;
}

/**
 * The bottom bar of the tab pages: home, the middle button that opens the admin area, and Mine.
 * Mine and admin go through navigation's guard, so a guest is sent to login first.
 */
export function TabBar({ current }: TabBarProps) {
  const unread = useAtomValue(unreadTotalAtom);
  const openHome = () => {
    if (current !== 'home') void Taro.switchTab({ url: HOME_PAGE });
  };
  const openMine = () => {
    if (current !== 'mine') void goTo('mine');
  };
  return (
    <View className="tab-bar">
      <View className={`tab-bar__item ${current === 'home' ? 'tab-bar__item--active' : ''}`} onClick={openHome}>
        <View className="tab-bar__icon tab-bar__icon--home" />
        <Text className="tab-bar__label">Home</Text>
      </View>
      <View className="tab-bar__item tab-bar__item--admin" onClick={() => void goTo('admin')}>
        <View className="tab-bar__admin-button">
          <View className="tab-bar__plus" />
        </View>
        <Text className="tab-bar__label">Admin</Text>
      </View>
      <View className={`tab-bar__item ${current === 'mine' ? 'tab-bar__item--active' : ''}`} onClick={openMine}>
        <View className="tab-bar__icon tab-bar__icon--mine" />
        {unread > 0 && <Text className="tab-bar__badge">{unread > 99 ? '99+' : unread}</Text>}
        <Text className="tab-bar__label">Mine</Text>
      </View>
    </View>
  );
}
