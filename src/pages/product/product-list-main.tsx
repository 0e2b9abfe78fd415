import { useRouteRecord } from '@/core/use-route-record';
import { CartButton } from '@/features/cart/CartButton';
import { ColorChips, FilterGroups, SORT_OPTIONS, SortBar, toggle } from '@/features/catalog/FilterPanel';
import { fetchColors, fetchFilters } from '@/features/catalog/api';
import { PagedGoodsView } from '@/features/goods/PagedGoodsView';
import { StateBox } from '@/features/goods/StateBox';
import { fetchGoodsPage } from '@/features/goods/api';
import { usePagedGoods } from '@/features/goods/use-paged-goods';
import { Text, View } from '@tarojs/components';
import { useReachBottom, useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Color, Filter, GoodsSort } from '../../../types/api';
import './product-list-main.css';

export const EMPTY_LIST_TITLE = 'No frames match';
export const EMPTY_LIST_TEXT = 'Try fewer filters or another colour.';

/** Ids from a query value like '3,7'. */
function idsOf(value: string | undefined): number[] {
  return (value ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
}

function sortOf(value: string | undefined): GoodsSort {
  return SORT_OPTIONS.find((option) => option.sort === value)?.sort ?? 'newest';
}

export default function ProductListMain() {
  useRouteRecord();
  const { params } = useRouter();
  const categoryId = idsOf(params.category_id)[0];
  const [colorIds, setColorIds] = useState<number[]>(() => idsOf(params.color_id));
  const [filterIds, setFilterIds] = useState<number[]>(() => idsOf(params.filter_id));
  const [sort, setSort] = useState<GoodsSort>(() => sortOf(params.sort));
  const [colors, setColors] = useState<Color[]>([]);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [panelOpen, setPanelOpen] = useState(false);

  useEffect(() => {
    fetchColors().then(setColors, () => setColors([]));
    fetchFilters().then(setFilters, () => setFilters([]));
  }, []);

  const key = `${categoryId ?? ''}|${colorIds.join(',')}|${filterIds.join(',')}|${sort}`;
  const load = useCallback(
    (page: number) =>
      fetchGoodsPage({
        page,
        sort,
        category_id: categoryId,
        color_ids: colorIds.length ? colorIds : undefined,
        filter_ids: filterIds.length ? filterIds : undefined,
      }),
    [categoryId, colorIds, filterIds, sort],
  );
  const list = usePagedGoods(key, load);
  useReachBottom(list.loadMore);

  const chosen = useMemo(() => filters.filter((filter) => filterIds.includes(filter.filter_id)), [filters, filterIds]);
  const clear = () => {
    setColorIds([]);
    setFilterIds([]);
  };

  return (
    <View className="product-list">
      <View className="product-list__controls">
        <SortBar sort={sort} onSort={setSort} />
        <ColorChips colors={colors} selected={colorIds} onToggle={(id) => setColorIds(toggle(colorIds, id))} />
        <View className="product-list__filter-row">
          <Text className="product-list__filter-toggle" onClick={() => setPanelOpen(!panelOpen)}>
            {panelOpen ? 'Hide filters' : `Filters${filterIds.length ? ` (${filterIds.length})` : ''}`}
          </Text>
          <View className="product-list__chosen">
            {chosen.map((filter) => (
              <Text
                key={filter.filter_id}
                className="product-list__chosen-chip"
                onClick={() => setFilterIds(toggle(filterIds, filter.filter_id))}
              >
                {filter.filter_name} ×
              </Text>
            ))}
          </View>
        </View>
        {panelOpen && (
          <FilterGroups filters={filters} selected={filterIds} onToggle={(id) => setFilterIds(toggle(filterIds, id))} />
        )}
      </View>
      <PagedGoodsView
        list={list}
        loadingText="Loading frames…"
        countClass="product-list__count"
        count={`${list.total} ${list.total === 1 ? 'frame' : 'frames'}`}
        empty={
          <StateBox
            title={EMPTY_LIST_TITLE}
            text={EMPTY_LIST_TEXT}
            action={colorIds.length || filterIds.length ? 'Clear filters' : undefined}
            onAction={clear}
          />
        }
      />
      <CartButton />
    </View>
  );
}
