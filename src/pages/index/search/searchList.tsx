import { useRouteRecord } from '@/core/use-route-record';
import { SortBar } from '@/features/catalog/FilterPanel';
import { PagedGoodsView } from '@/features/goods/PagedGoodsView';
import { StateBox } from '@/features/goods/StateBox';
import { queryText, searchGoods } from '@/features/goods/api';
import { usePagedGoods } from '@/features/goods/use-paged-goods';
import { SearchBox } from '@/features/search/SearchBox';
import { rememberSearch } from '@/features/search/history';
import { View } from '@tarojs/components';
import Taro, { useReachBottom, useRouter } from '@tarojs/taro';
import { useCallback, useState } from 'react';
import type { GoodsSort } from '../../../../types/api';
import '@/features/search/search.css';
import { CartButton } from '@/features/cart/CartButton';
import './searchList.css';

export const noResultsText = (keyword: string) => `Nothing matches “${keyword}”. Try a shape, a colour or a material.`;

export default function SearchList() {
  useRouteRecord();
  const { params } = useRouter();
  const [keyword, setKeyword] = useState(() => queryText(params.keyword).trim());
  const [sort, setSort] = useState<GoodsSort>('newest');
  const load = useCallback((page: number) => searchGoods({ keyword, sort, page }), [keyword, sort]);
  const list = usePagedGoods(`${keyword}|${sort}`, load, keyword !== '');
  useReachBottom(list.loadMore);

  const search = (next: string) => {
    rememberSearch(next);
    setKeyword(next);
    void Taro.pageScrollTo({ scrollTop: 0, duration: 0 });
  };

  return (
    <View className="search-list">
      <SearchBox initial={keyword} onSearch={search} key={keyword} />
      <SortBar sort={sort} onSort={setSort} />
      {keyword === '' && <StateBox title="Type what you are looking for" />}
      {keyword !== '' && (
        <PagedGoodsView
          list={list}
          loadingText="Searching…"
          countClass="search-list__count"
          count={`${list.total} ${list.total === 1 ? 'result' : 'results'} for “${keyword}”`}
          empty={<StateBox title="No frames found" text={noResultsText(keyword)} />}
        />
      )}
      <CartButton />
    </View>
  );
}
