import { get } from '@/core/request';
import type { Category, HomeBanner, HomePage, HomeSection } from '../../../types/api';

export type { HomeBanner, HomePage, HomeSection };
/** A frame as a home section shows it. */
export type HomeGoods = HomeSection['goods'][number];
export type HomeCategory = Category;

function listOf<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

/** The home page content; lists the server leaves out are empty. */
export async function fetchHomePage(): Promise<HomePage> {
  const data: Partial<HomePage> | null = await get('/api/index/shop_mainpage');
  return {
    banners: listOf(data?.banners),
    categories: listOf(data?.categories),
    sections: listOf(data?.sections),
    articles: listOf(data?.articles),
  };
}
