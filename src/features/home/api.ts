import { get } from '@/core/request';

export interface HomeGoods {
  goods_id: number;
  goods_name: string;
  goods_img: string;
  shop_price: number;
  discount: number;
  final_price: number;
}

export interface HomeSection {
  id: number;
  title: string;
  cover: string;
  goods: HomeGoods[];
}

export interface HomeBanner {
  image: string;
  title: string;
  /** An app route with its query, e.g. `/pages/product/product?id=3`. */
  link: string;
}

export interface HomeCategory {
  category_id: number;
  category_name: string;
  category_img: string;
}

export interface HomeAuthor {
  user_id: number;
  nickname: string;
  avatar: string;
}

/** The latest articles the server sends with home (at most four, newest first). */
export interface HomeArticle {
  article_id: number;
  title: string;
  cover: string;
  author: HomeAuthor | null;
  created_at: number;
}

export interface HomePage {
  banners: HomeBanner[];
  categories: HomeCategory[];
  sections: HomeSection[];
  articles: HomeArticle[];
}

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
  return toHomePage(await get<Partial<Record<keyof HomePage, unknown>> | null>(HOME_PAGE_PATH));
}
