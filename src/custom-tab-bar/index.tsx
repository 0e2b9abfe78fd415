import { appStore } from '@/state/store';
import { TabBar } from '@/ui/tab-bar/TabBar';
import { currentTabAtom } from '@/ui/tab-bar/tabs';
import { Provider, useAtomValue } from 'jotai';

function CurrentTabBar() {
  return <TabBar current={useAtomValue(currentTabAtom)} />;
}

/** The weapp custom tab bar (`tabBar.custom`): the shared TabBar, on the tab the page on screen set. */
export default function CustomTabBar() {
  return (
    <Provider store={appStore}>
      <CurrentTabBar />
    </Provider>
  );
}
