import { get } from '@/core/request';
import type { Category, HomeBanner, HomePage, HomeSection } from '../../../types/api';

export type { HomeBanner, HomePage, HomeSection };
/** A frame as a home section shows it. */
export type HomeGoods = HomeSection['goods'][number];
export type HomeCategory = Category;
/** The latest articles the server sends with home (at most four, newest first). */
export type HomeArticle = HomePage['articles'][number];
export type HomeAuthor = NonNullable<HomeArticle['author']>;

export const HOME_PAGE_PATH = '/api/index/shop_mainpage';

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The home answer's data as the page uses it: lists the server leaves out are empty. */
export function toHomePage(data: Partial<Record<keyof HomePage, unknown>> | null | undefined): HomePage {
  return {
    banners: listOf<HomeBanner>(data?.banners),
    categories: listOf<HomeCategory>(data?.categories),
    sections: listOf<HomeSection>(data?.sections),
    articles: listOf<HomeArticle>(data?.articles),
  };
}

/**
 * The people of the community home shows: the authors of the latest articles, each once, in the order their
 * newest article came.
 */
export function communityOf(articles: HomeArticle[]): HomeAuthor[] {
  const seen = new Set<number>();
  const people: HomeAuthor[] = [];
  for (const article of articles) {
    const author = article.author;
    if (!author || seen.has(author.user_id)) continue;
    seen.add(author.user_id);
    people.push(author);
  }
  return people;
}

/** The home page content. */
export async function fetchHomePage(): Promise<HomePage> {
  return toHomePage(await get(HOME_PAGE_PATH));
}
