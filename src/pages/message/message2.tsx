import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { CHAT_PAGES } from '@/features/chat/routes';
import { loadNotices } from '@/features/social/api';
import { LinkRow } from '@/features/social/components';
import { useLoad } from '@/features/social/use-load';
import { StateView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import '@/features/social/social.css';

/** Likes, new followers and comments, each with its count, and the way back to the conversations. */
export default function Message2() {
  useRouteRecord();
  const user = useSignedInUser();
  const { data, state, error, reload } = useLoad(
    () =>
      Promise.all([loadNotices('likes'), loadNotices('followers'), loadNotices('comments')]).then(
        ([likes, followers, comments]) => ({
          likes: likes.total,
          followers: followers.total,
          comments: comments.total,
        }),
      ),
    [user?.token],
    Boolean(user),
  );
  if (!user) return null;
  return (
    <View className="social-page">
      {state === 'error' && <StateView state="error" error={error} onRetry={reload} />}
      <View className="social-card">
        <LinkRow
          label="Likes"
          value={data ? String(data.likes) : ''}
          onClick={() => void openPage(CHAT_PAGES.agrees)}
        />
        <LinkRow
          label="New followers"
          value={data ? String(data.followers) : ''}
          onClick={() => void openPage(CHAT_PAGES.followers)}
        />
        <LinkRow
          label="Comments"
          value={data ? String(data.comments) : ''}
          onClick={() => void openPage(CHAT_PAGES.comments)}
        />
      </View>
      <View className="social-card">
        <LinkRow label="Conversations" onClick={() => void openPage(CHAT_PAGES.message)} />
      </View>
    </View>
  );
}
