import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { CHAT_PAGES } from '@/features/chat/routes';
import { createGroup, loadGroups, loadPeople, refusal } from '@/features/social/api';
import { LinkRow } from '@/features/social/components';
import { useLoad } from '@/features/social/use-load';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Input, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import '@/features/social/social.css';

/** The signed-in user's groups, and a new group with people they follow. */
export default function Group() {
  useRouteRecord();
  const user = useSignedInUser();
  const { state, data: groups, error, reload } = useLoad(() => loadGroups(), [user?.token], Boolean(user));
  const following = useLoad(() => loadPeople('following', { page: 1 }), [user?.token], Boolean(user));
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const create = async () => {
    if (name.trim() === '') {
      void Taro.showToast({ title: 'Give the group a name', icon: 'none' });
      return;
    }
    setBusy(true);
    try {
      const group = await createGroup(name.trim(), chosen);
      setName('');
      setChosen([]);
      void openPage(CHAT_PAGES.groupChat, { to: String(group.group_id) });
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'The group could not be created'), icon: 'none', duration: 2500 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="social-page">
      {state !== 'ready' || !groups ? (
        <StateView state={state === 'ready' ? 'loading' : state} error={error} onRetry={reload} />
      ) : groups.length === 0 ? (
        <EmptyView title="No groups yet" hint="Start one below." />
      ) : (
        <View className="social-card">
          {groups.map((group) => (
            <LinkRow
              key={group.group_id}
              label={group.name}
              value={`${group.member_count} members`}
              onClick={() => void openPage(CHAT_PAGES.groupChat, { to: String(group.group_id) })}
            />
          ))}
        </View>
      )}
      <View className="social-card">
        <Text className="social-card__title">New group</Text>
        <Input
          className="social-input"
          name="group-name"
          value={name}
          maxlength={40}
          placeholder="Group name"
          onInput={(event) => setName(event.detail.value)}
        />
        <Text className="social-label">Members (people you follow)</Text>
        <View className="social-chips">
          {(following.data?.list ?? []).map((person) => (
            <View
              key={person.user_id}
              className={`social-chip ${chosen.includes(person.user_id) ? 'social-chip--on' : ''}`}
              onClick={() =>
                setChosen((list) =>
                  list.includes(person.user_id)
                    ? list.filter((id) => id !== person.user_id)
                    : [...list, person.user_id],
                )
              }
            >
              <Text>{person.nickname}</Text>
            </View>
          ))}
          {following.data?.list.length === 0 ? <Text className="social-muted">Follow people to add them.</Text> : null}
        </View>
      </View>
      <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void create()}>
        <Text>{busy ? 'Creating…' : 'Create group'}</Text>
      </View>
    </View>
  );
}
