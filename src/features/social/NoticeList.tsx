import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { PagedFoot } from '@/features/paging/PagedFoot';
import { usePagedList } from '@/features/paging/use-paged-list';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useCallback } from 'react';
import type { Notice, NoticeKind } from '../../../types/api';
import { loadNotices, refusal } from './api';
import { Avatar, shortDate } from './components';
import { SOCIAL_PAGES } from './routes';

const ACTION: Record<NoticeKind, string> = {
  likes: 'liked',
  followers: 'started following you',
  comments: 'commented on',
};
const EMPTY: Record<NoticeKind, string> = {
  likes: 'No likes yet',
  followers: 'No new followers yet',
  comments: 'No comments yet',
};

function openTarget(notice: Notice): void {
  if (!notice.target) void openPage(SOCIAL_PAGES.user, { id: String(notice.from.user_id) });
  else if (notice.target.kind === 'article')
    void openPage(SOCIAL_PAGES.article, { id: String(notice.target.target_id) });
  else void openPage(SOCIAL_PAGES.collectionImgs);
}

const NOTICES_FAILED = 'Could not load the notifications';

/** Likes, new followers or comments on the signed-in user's articles and photos, newest first. */
export function NoticeList({ kind }: { kind: NoticeKind }) {
  const load = useCallback((page: number) => loadNotices(kind, page), [kind]);
  const list = usePagedList(kind, load, {
    failedText: NOTICES_FAILED,
    describe: (reason) => refusal(reason, NOTICES_FAILED),
  });
  const notices = list.items;
  useReachBottom(list.loadMore);
  const state: LoadState = list.loading ? 'loading' : notices.length === 0 && list.error ? 'error' : 'ready';

  if (state !== 'ready') return <StateView state={state} error={list.error} onRetry={list.retry} />;
  if (notices.length === 0) return <EmptyView title={EMPTY[kind]} />;
  return (
    <View className="social-card">
      {notices.map((notice, index) => (
        <View key={`${notice.created_at}-${index}`} className="social-person" onClick={() => openTarget(notice)}>
          <Avatar url={notice.from.avatar} name={notice.from.nickname} />
          <View className="social-person__text">
            <Text className="social-person__name">
              {notice.from.nickname} {ACTION[kind]}
              {notice.target ? ` “${notice.target.title || 'your photo'}”` : ''}
            </Text>
            <Text className="social-person__bio">{notice.content || shortDate(notice.created_at)}</Text>
          </View>
          {notice.target?.image ? (
            <Image
              className="social-avatar social-avatar--medium"
              style={{ borderRadius: '8px' }}
              src={imageUrl(notice.target.image)}
              mode="aspectFill"
            />
          ) : null}
        </View>
      ))}
      <PagedFoot list={list} doneText="That is every notification" />
    </View>
  );
}
