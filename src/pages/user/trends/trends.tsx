import { useRouteRecord } from '@/core/use-route-record';
import { loadTrends } from '@/features/social/api';
import { ArticleRow, PageLoadState } from '@/features/social/components';
import { useLoad } from '@/features/social/use-load';
import { EmptyView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import '@/features/social/social.css';

/** A user's articles (query id), or without id the feed of the people the signed-in user follows. */
export default function Trends() {
  useRouteRecord();
  const userId = Number(useRouter().params.id) || undefined;
  const { state, data, error, reload } = useLoad(() => loadTrends(userId), [userId]);
  if (state !== 'ready' || !data) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      {data.list.length === 0 ? (
        <EmptyView title="No articles yet" />
      ) : (
        <View className="social-card">
          <Text className="social-muted">{data.total} articles</Text>
          {data.list.map((article) => (
            <ArticleRow key={article.article_id} article={article} />
          ))}
        </View>
      )}
    </View>
  );
}
