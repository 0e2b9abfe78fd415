import type { TabKey } from './tabs';

/**
 * The tab bar as part of a tab page, one file per platform: Taro 4.2's H5 router does not render `tabBar.custom`
 * components, so on H5 (PageTabBar.h5.tsx) each tab page renders the bar itself; on weapp (PageTabBar.weapp.tsx)
 * the native custom tab bar (src/custom-tab-bar) draws it and the page only says which tab is on.
 */
export type PageTabBarComponent = (props: { current: TabKey }) => JSX.Element | null;

export declare const PageTabBar: PageTabBarComponent;
