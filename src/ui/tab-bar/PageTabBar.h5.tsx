import type { PageTabBarComponent } from './PageTabBar';
import { TabBar } from './TabBar';

/** On H5 the tab page renders the bar itself. */
export const PageTabBar: PageTabBarComponent = ({ current }) => <TabBar current={current} />;
