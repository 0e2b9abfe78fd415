import { Input, Text, View } from '@tarojs/components';
import { useState } from 'react';
import './search.css';

/** The keyword field with its Search button; an empty keyword is not sent. */
export function SearchBox({
  initial = '',
  autoFocus = false,
  onSearch,
}: { initial?: string; autoFocus?: boolean; onSearch(keyword: string): void }) {
  const [keyword, setKeyword] = useState(initial);
  const submit = () => {
    if (keyword.trim() !== '') onSearch(keyword.trim());
  };
  return (
    <View className="search-box">
      <View className="search-box__field">
        <View className="search-box__icon" />
        <Input
          className="search-box__input"
          name="keyword"
          type="text"
          confirmType="search"
          focus={autoFocus}
          placeholder="Search frames, shapes, colours"
          value={keyword}
          maxlength={100}
          onInput={(event) => setKeyword(event.detail.value)}
          onConfirm={submit}
        />
      </View>
      <Text className="search-box__button" onClick={submit}>
        Search
      </Text>
    </View>
  );
}
