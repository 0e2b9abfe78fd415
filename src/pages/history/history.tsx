import { routeStack } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadArticle } from '@/features/article/api';
import { ArticleRow } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { EmptyView, FailureLine } from '@/ui/shop/StateView';
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
  const [failed, setFailed] = useState(0);
  const load = () => {
    const ids = readArticleIds();
    let failures = 0;
    // A deleted article (404) is left out; any other failure is said, with a way to try again.
    const read = (id: number) =>
      loadArticle(id).catch((reason: unknown) => {
        if ((reason as { status?: number } | null)?.status !== 404) failures += 1;
        return null;
      });
    Promise.all(ids.map(read)).then((loaded) => {
      setFailed(failures);
      setArticles(loaded.filter((article): article is NonNullable<typeof article> => article !== null));
    });
  };
  useDidShow(load);
  if (articles === null) return <View className="social-page" />;
  return (
    <View className="social-page">
      {failed > 0 && (
        <FailureLine
          message={failed === 1 ? 'Could not load an article you read' : `Could not load ${failed} articles you read`}
          onRetry={load}
        />
      )}
      {failed > 0 && articles.length === 0 ? null : articles.length === 0 ? (
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
