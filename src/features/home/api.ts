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

export interface HomePage {
  banners: HomeBanner[];
  categories: HomeCategory[];
  sections: HomeSection[];
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The home page content; lists the server leaves out are empty. */
export async function fetchHomePage(): Promise<HomePage> {
  const data = await get('/api/index/shop_mainpage');
  return {
    banners: listOf<HomeBanner>(data?.banners),
    categories: listOf<HomeCategory>(data?.categories),
    sections: listOf<HomeSection>(data?.sections),
  };
}
