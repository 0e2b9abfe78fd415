import { openPage } from '@/core/navigation';
import { post } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { CHAT_PAGES } from '@/features/chat/routes';
import { loadTrends } from '@/features/social/api';
import { ArticleRow, LinkRow } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { currentToken } from '@/state/customer';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import '@/features/social/social.css';

/** The ways around the social side, in the order a newcomer looks for them. */
export const HUB_LINKS: [string, string, Record<string, string>][] = [
  ['My profile', SOCIAL_PAGES.user, {}],
  ['Messages', CHAT_PAGES.message, {}],
  ['Groups', CHAT_PAGES.groups, {}],
  ['Trends', SOCIAL_PAGES.trends, {}],
  ['People', SOCIAL_PAGES.allUser, { type: 'all' }],
  ['Find people', SOCIAL_PAGES.addFriend, {}],
  ['Albums', SOCIAL_PAGES.albums, {}],
  ['Collections', SOCIAL_PAGES.collections, {}],
  ['Tags', SOCIAL_PAGES.addTag, {}],
  ['Publish', SOCIAL_PAGES.push, {}],
  ['History', SOCIAL_PAGES.history, {}],
];

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
        {HUB_LINKS.map(([label, path, query]) => (
          <LinkRow key={label} label={label} onClick={() => void openPage(path, query)} />
        ))}
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
