import { TabBar } from './TabBar';
import type { TabKey } from './tabs';

/**
 * The tab bar as part of a tab page. Taro 4.2's H5 router does not render `tabBar.custom` components, so on
 * H5 each tab page renders the bar itself; PageTabBar.weapp.tsx hands the job to the native custom tab bar.
 */
export function PageTabBar({ current }: { current: TabKey }) {
  return <TabBar current={current} />;
}
