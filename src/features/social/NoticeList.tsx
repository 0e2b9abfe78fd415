import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useEffect, useState } from 'react';
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

/** Likes, new followers or comments on the signed-in user's articles and photos, newest first. */
export function NoticeList({ kind }: { kind: NoticeKind }) {
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [notices, setNotices] = useState<Notice[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);

  const load = (wanted: number) =>
    loadNotices(kind, wanted).then(
      (answer) => {
        setNotices((list) => (wanted === 1 ? answer.list : [...list, ...answer.list]));
        setTotal(answer.total);
        setPage(wanted);
        setState('ready');
      },
      (reason: unknown) => {
        setError(refusal(reason, 'Could not load the notifications'));
        setState('error');
      },
    );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the list starts over when the kind changes; load is a new function each render
  useEffect(() => {
    void load(1);
  }, [kind]);
  useReachBottom(() => {
    if (state === 'ready' && notices.length < total) void load(page + 1);
  });

  if (state !== 'ready') return <StateView state={state} error={error} onRetry={() => void load(1)} />;
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
    </View>
  );
}
