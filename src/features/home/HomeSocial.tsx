import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { Image, Text, View } from '@tarojs/components';
import { type HomeArticle, type HomeAuthor, communityOf } from './api';

export const ARTICLE_PAGE = '/pages/article/article';
export const PROFILE_PAGE = '/pages/user/user';
export const COMMUNITY_PAGE = '/pages/main/main';
export const HOME_ARTICLES_TITLE = 'Latest articles';
export const HOME_COMMUNITY_TITLE = 'The community';
export const HOME_COMMUNITY_TEXT =
  'Shoppers and opticians share their frames, albums and tips. Follow them, or say hello.';
export const HOME_COMMUNITY_OPEN = 'Open the community';

function articleDate(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function ArticleCard({ article }: { article: HomeArticle }) {
  const author = article.author?.nickname;
  return (
    <View className="home-article" onClick={() => void openPage(ARTICLE_PAGE, { id: String(article.article_id) })}>
      {article.cover ? (
        <Image className="home-article__cover" src={imageUrl(article.cover)} mode="aspectFill" lazyLoad />
      ) : (
        <View className="home-article__cover" />
      )}
      <View className="home-article__text">
        <Text className="home-article__title">{article.title}</Text>
        <Text className="home-article__meta">
          {author ? `${author} · ` : ''}
          {articleDate(article.created_at)}
        </Text>
      </View>
    </View>
  );
}

/** The latest articles the server sends with home, each opening the article page. */
export function HomeArticles({ articles }: { articles: HomeArticle[] }) {
  if (articles.length === 0) return null;
  return (
    <View className="home__articles">
      <View className="home__section-head">
        <Text className="home__section-title">{HOME_ARTICLES_TITLE}</Text>
        <Text className="home-section-link" onClick={() => void openPage(COMMUNITY_PAGE)}>
          See all
        </Text>
      </View>
      {articles.map((article) => (
        <ArticleCard article={article} key={article.article_id} />
      ))}
    </View>
  );
}

function Person({ person }: { person: HomeAuthor }) {
  const name = person.nickname || `User ${person.user_id}`;
  return (
    <View className="home-person" onClick={() => void openPage(PROFILE_PAGE, { id: String(person.user_id) })}>
      {person.avatar ? (
        <Image className="home-person__avatar" src={imageUrl(person.avatar)} mode="aspectFill" lazyLoad />
      ) : (
        <View className="home-person__avatar home-person__avatar--initial">
          <Text>{name.slice(0, 1).toUpperCase()}</Text>
        </View>
      )}
      <Text className="home-person__name">{name}</Text>
    </View>
  );
}

/** The social side of the shop: who writes, and the way into the community page. */
export function HomeCommunity({ articles }: { articles: HomeArticle[] }) {
  const people = communityOf(articles);
  return (
    <View className="home__community">
      <Text className="home__section-title">{HOME_COMMUNITY_TITLE}</Text>
      <Text className="home__community-text">{HOME_COMMUNITY_TEXT}</Text>
      {people.length > 0 && (
        <View className="home__people">
          {people.map((person) => (
            <Person person={person} key={person.user_id} />
          ))}
        </View>
      )}
      <View className="home__community-open" onClick={() => void openPage(COMMUNITY_PAGE)}>
        <Text>{HOME_COMMUNITY_OPEN}</Text>
      </View>
    </View>
  );
}
