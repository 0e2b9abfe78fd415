import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { CartButton } from '@/features/cart/CartButton';
import { SortBar } from '@/features/catalog/FilterPanel';
import { PagedGoodsView } from '@/features/goods/PagedGoodsView';
import { StateBox } from '@/features/goods/StateBox';
import { PRODUCT_LIST_PAGE, fetchGoodsPage, queryText } from '@/features/goods/api';
import { usePagedGoods } from '@/features/goods/use-paged-goods';
import { Text, View } from '@tarojs/components';
import Taro, { useReachBottom, useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import type { GoodsSort } from '../../../../types/api';
import './categoryList.css';

export default function CategoryList() {
  useRouteRecord();
  const { params } = useRouter();
  const categoryId = Number(params.id);
  const name = queryText(params.name);
  const [sort, setSort] = useState<GoodsSort>('newest');
  const load = useCallback(
    (page: number) => fetchGoodsPage({ page, sort, category_id: categoryId }),
    [categoryId, sort],
  );
  const list = usePagedGoods(`${categoryId}|${sort}`, load, categoryId > 0);
  useReachBottom(list.loadMore);

  useEffect(() => {
    if (name) void Taro.setNavigationBarTitle({ title: name });
  }, [name]);

  return (
    <View className="category-list">
      <View className="category-list__head">
        <Text className="category-list__title">{name || 'Category'}</Text>
        <Text
          className="category-list__filter"
          onClick={() => void openPage(PRODUCT_LIST_PAGE, { category_id: String(categoryId) })}
        >
          Filter by colour, shape…
        </Text>
      </View>
      <SortBar sort={sort} onSort={setSort} />
      <PagedGoodsView
        list={list}
        loadingText="Loading frames…"
        countClass="category-list__count"
        count={`${list.total} ${list.total === 1 ? 'frame' : 'frames'}`}
        empty={
          <StateBox
            title="No frames in this category yet"
            text="Browse every frame instead."
            action="All frames"
            onAction={() => void openPage(PRODUCT_LIST_PAGE)}
          />
        }
      />
      <CartButton />
    </View>
  );
}
