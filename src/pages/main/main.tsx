import { openPage } from '@/core/navigation';
import { post } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { loadTrends } from '@/features/social/api';
import { ArticleRow, LinkRow } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { currentToken } from '@/state/customer';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import '@/features/social/social.css';

/** The community start page: the feed of followed people (signed in) or the latest articles, and the ways around. */
export default function Main() {
  useRouteRecord();
  const signedIn = currentToken() !== '';
  const { state, data, error, reload } = useLoad(async () => {
    const feed = signedIn ? await loadTrends() : null;
    if (feed && feed.total > 0) return { title: 'From people you follow', list: feed.list };
    const latest = await post('/api/article/get_article_list', { page_size: 20 });
    return { title: 'Latest articles', list: latest.list };
  }, [signedIn]);
  return (
    <View className="social-page">
      <View className="social-card">
        <LinkRow label="My profile" onClick={() => void openPage(SOCIAL_PAGES.user)} />
        <LinkRow label="Messages" onClick={() => void openPage('/pages/message/message')} />
        <LinkRow label="Find people" onClick={() => void openPage(SOCIAL_PAGES.addFriend)} />
        <LinkRow label="Tags" onClick={() => void openPage(SOCIAL_PAGES.addTag)} />
        <LinkRow label="Publish" onClick={() => void openPage(SOCIAL_PAGES.push)} />
        <LinkRow label="History" onClick={() => void openPage(SOCIAL_PAGES.history)} />
      </View>
      {state !== 'ready' || !data ? (
        <StateView state={state === 'ready' ? 'loading' : state} error={error} onRetry={reload} />
      ) : data.list.length === 0 ? (
        <EmptyView title="No articles yet" />
      ) : (
        <View className="social-card">
          <Text className="social-card__title">{data.title}</Text>
          {data.list.map((article) => (
            <ArticleRow key={article.article_id} article={article} />
          ))}
        </View>
      )}
    </View>
  );
}
