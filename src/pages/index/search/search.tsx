import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { SearchBox } from '@/features/search/SearchBox';
import { SEARCH_LIST_PAGE, clearSearchHistory, readSearchHistory, rememberSearch } from '@/features/search/history';
import { Text, View } from '@tarojs/components';
import { useDidShow } from '@tarojs/taro';
import { useState } from 'react';
import '@/features/search/search.css';
import './search.css';

export default function Search() {
  useRouteRecord();
  const [history, setHistory] = useState<string[]>(readSearchHistory);
  useDidShow(() => setHistory(readSearchHistory()));

  const search = (keyword: string) => {
    setHistory(rememberSearch(keyword));
    void openPage(SEARCH_LIST_PAGE, { keyword });
  };

  return (
    <View className="search-page">
      <SearchBox autoFocus onSearch={search} />
      <View className="search-history">
        <View className="search-history__head">
          <Text className="search-history__title">Recent searches</Text>
          {history.length > 0 && (
            <Text
              className="search-history__clear"
              onClick={() => {
                clearSearchHistory();
                setHistory([]);
              }}
            >
              Clear
            </Text>
          )}
        </View>
        {history.length === 0 ? (
          <Text className="search-history__empty">Your searches will show here.</Text>
        ) : (
          <View className="search-history__chips">
            {history.map((keyword) => (
              <Text className="search-history__chip" key={keyword} onClick={() => search(keyword)}>
                {keyword}
              </Text>
            ))}
          </View>
        )}
      </View>
    </View>
  );
}
