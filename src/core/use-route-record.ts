import { useDidShow } from '@tarojs/taro';
import { currentRoute, recordRoute } from './navigation';

/** Records the page in the route stack each time it is shown, so back can return to it. */
export function useRouteRecord(): void {
  useDidShow(() => {
    recordRoute(currentRoute());
  });
}
