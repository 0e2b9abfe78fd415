import { useRouteRecord } from '@/core/use-route-record';
import { PeopleList } from '@/features/social/PeopleList';
import { Input, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import '@/features/social/social.css';

const SEARCH_DELAY_MS = 300;

/** Finds people by nickname and follows them. */
export default function AddFriend() {
  useRouteRecord();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <View className="social-page">
      <View className="social-card">
        <Input
          className="social-input"
          name="keyword"
          value={typed}
          maxlength={60}
          confirmType="search"
          placeholder="Search by nickname"
          onInput={(event) => setTyped(event.detail.value)}
        />
      </View>
      <PeopleList kind="all" keyword={keyword} empty={keyword ? `Nobody called “${keyword}”` : 'Nobody here yet'} />
    </View>
  );
}
