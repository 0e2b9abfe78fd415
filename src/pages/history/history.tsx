import { routeStack } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadArticle } from '@/features/article/api';
import { ArticleRow } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { EmptyView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import { useDidShow } from '@tarojs/taro';
import { useState } from 'react';
import type { ArticleSummary } from '../../../types/api';
import '@/features/social/social.css';

/** Articles recently read, newest first, taken from the route history (at most 20 entries). */
function readArticleIds(): number[] {
  const ids = routeStack()
    .filter((entry) => entry.path === SOCIAL_PAGES.article)
    .map((entry) => Number(entry.query.id))
    .filter((id) => Number.isInteger(id) && id > 0)
    .reverse();
  return [...new Set(ids)];
}

export default function History() {
  useRouteRecord();
  const [articles, setArticles] = useState<ArticleSummary[] | null>(null);
  useDidShow(() => {
    const ids = readArticleIds();
    Promise.all(ids.map((id) => loadArticle(id).catch(() => null))).then((loaded) =>
      setArticles(loaded.filter((article): article is NonNullable<typeof article> => article !== null)),
    );
  });
  if (articles === null) return <View className="social-page" />;
  return (
    <View className="social-page">
      {articles.length === 0 ? (
        <EmptyView title="Nothing read yet" hint="Articles you open show up here." />
      ) : (
        <View className="social-card">
          {articles.map((article) => (
            <ArticleRow key={article.article_id} article={article} />
          ))}
        </View>
      )}
    </View>
  );
}
