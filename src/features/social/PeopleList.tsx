import { currentUser } from '@/state/customer';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { UserCard } from '../../../types/api';
import { type PeopleList as ListKind, loadPeople, refusal } from './api';
import { PersonRow, useFollowToggle } from './components';

/** A paged list of people (followers, following or everyone matching a keyword) with follow buttons. */
export function PeopleList({
  kind,
  userId,
  keyword = '',
  empty,
}: { kind: ListKind; userId?: number; keyword?: string; empty: string }) {
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [people, setPeople] = useState<UserCard[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const me = currentUser()?.user_id;
  const { busy, toggle } = useFollowToggle((changed, following) =>
    setPeople((list) =>
      list.map((person) => (person.user_id === changed ? { ...person, is_following: following } : person)),
    ),
  );

  const load = (wanted: number) => {
    loadPeople(kind, { userId, keyword, page: wanted }).then(
      (answer) => {
        setPeople((list) => (wanted === 1 ? answer.list : [...list, ...answer.list]));
        setTotal(answer.total);
        setPage(wanted);
        setState('ready');
      },
      (reason: unknown) => {
        setError(refusal(reason, 'Could not load the list'));
        setState('error');
      },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the list starts over when what it shows changes; load is a new function each render
  useEffect(() => {
    setState('loading');
    load(1);
  }, [kind, userId, keyword]);

  useReachBottom(() => {
    if (state === 'ready' && people.length < total) load(page + 1);
  });

  if (state !== 'ready') return <StateView state={state} error={error} onRetry={() => load(1)} />;
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
    </View>
  );
}
