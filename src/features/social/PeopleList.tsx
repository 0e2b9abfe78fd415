import { PagedFoot } from '@/features/paging/PagedFoot';
import { usePagedList } from '@/features/paging/use-paged-list';
import { currentUser } from '@/state/customer';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useCallback, useState } from 'react';
import { type PeopleList as ListKind, loadPeople, refusal } from './api';
import { PersonRow, useFollowToggle } from './components';

const PEOPLE_FAILED = 'Could not load the list';

/** A paged list of people (followers, following or everyone matching a keyword) with follow buttons. */
export function PeopleList({
  kind,
  userId,
  keyword = '',
  empty,
}: { kind: ListKind; userId?: number; keyword?: string; empty: string }) {
  const load = useCallback((page: number) => loadPeople(kind, { userId, keyword, page }), [kind, userId, keyword]);
  const list = usePagedList(`${kind}|${userId ?? ''}|${keyword}`, load, {
    failedText: PEOPLE_FAILED,
    describe: (reason) => refusal(reason, PEOPLE_FAILED),
  });
  // Follows changed here, over what the pages said.
  const [followed, setFollowed] = useState<Record<number, boolean>>({});
  const people = list.items.map((person) =>
    person.user_id in followed ? { ...person, is_following: followed[person.user_id] } : person,
  );
  const total = list.total;
  const me = currentUser()?.user_id;
  const { busy, toggle } = useFollowToggle((changed, following) =>
    setFollowed((shown) => ({ ...shown, [changed]: following })),
  );
  useReachBottom(list.loadMore);
  const state: LoadState = list.loading ? 'loading' : list.items.length === 0 && list.error ? 'error' : 'ready';

  if (state !== 'ready') return <StateView state={state} error={list.error} onRetry={list.retry} />;
  if (people.length === 0) return <EmptyView title={empty} />;
  return (
    <View className="social-card">
      <Text className="social-muted">
        {total} {total === 1 ? 'person' : 'people'}
      </Text>
      {people.map((person) => (
        <PersonRow
          key={person.user_id}
          user={person}
          busy={busy === person.user_id}
          showFollow={person.user_id !== me}
          onToggle={() => void toggle(person.user_id, person.is_following)}
        />
      ))}
      <PagedFoot list={list} doneText="That is everyone" />
    </View>
  );
}
