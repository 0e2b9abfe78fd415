import { appStore } from '@/state/store';
import { useDidShow } from '@tarojs/taro';
import type { PageTabBarComponent } from './PageTabBar';
import { currentTabAtom } from './tabs';

/** On weapp the custom tab bar (src/custom-tab-bar) draws the bar; the page only tells it which tab is on. */
export const PageTabBar: PageTabBarComponent = ({ current }) => {
  useDidShow(() => {
    appStore.set(currentTabAtom, current);
  });
  return null;
};
