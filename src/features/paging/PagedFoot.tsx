import { Text, View } from '@tarojs/components';
import type { PagedList } from './use-paged-list';
import '@/ui/shop/shop.css';
import './paging.css';

/**
 * The foot of a list that grows as the user scrolls: the failed page's error with "Try again" (which asks for
 * that page again), "Loading more…" while a page is on its way, or `doneText` once every item is shown.
 */
export function PagedFoot<T>({ list, doneText }: { list: PagedList<T>; doneText: string }) {
  if (list.items.length === 0) return null;
  if (list.error) {
    return (
      <View className="paged-foot paged-foot--error">
        <Text className="paged-foot__error">{list.error}</Text>
        <View className="shop-button shop-button--ghost shop-button--small" onClick={list.retry}>
          <Text>Try again</Text>
        </View>
      </View>
    );
  }
  if (list.loadingMore) return <Text className="paged-foot">Loading more…</Text>;
  if (list.done) return <Text className="paged-foot">{doneText}</Text>;
  return null;
}
