import { Text, View } from '@tarojs/components';
import type { ReactNode } from 'react';
import { GoodsGrid, ListFoot } from './GoodsCard';
import { StateBox } from './StateBox';
import type { PagedGoods } from './use-paged-goods';

/**
 * The body of a list of frames that grows as the shopper scrolls: loading, a failed first page (with retry),
 * the empty state the page gives, or the count, the grid and the foot (more loading, all shown, retry).
 */
export function PagedGoodsView({
  list,
  loadingText,
  empty,
  count,
  countClass,
}: {
  list: PagedGoods;
  loadingText: string;
  empty: ReactNode;
  count: ReactNode;
  countClass: string;
}) {
  if (list.loading) return <StateBox text={loadingText} />;
  if (list.items.length === 0) {
    return list.error ? <StateBox title={list.error} action="Try again" onAction={list.retry} /> : <>{empty}</>;
  }
  return (
    <View>
      <Text className={countClass}>{count}</Text>
      <GoodsGrid items={list.items} />
      <ListFoot
        count={list.items.length}
        loadingMore={list.loadingMore}
        done={list.done}
        error={list.error}
        onRetry={list.retry}
      />
    </View>
  );
}
