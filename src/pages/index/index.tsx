import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { SEARCH_PAGE } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { HomeEntries, openCategory, openHomeSection } from '@/features/catalog/HomeEntries';
import { type HomeGoods, type HomePage, fetchHomePage } from '@/features/home/api';
import { logoAtom } from '@/state/shop';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { chunk, formatPrice, shownDiscount } from '@/utils/format';
import { Image, Swiper, SwiperItem, Text, View } from '@tarojs/components';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import './index.css';

const PRODUCT_PAGE = '/pages/product/product';
export const HOME_EMPTY_MESSAGE = 'New frames are on their way. Check back soon.';
export const HOME_ERROR_MESSAGE = 'The shop could not be loaded.';

type HomeState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; page: HomePage };

function failureText(failure: unknown): string {
  if (typeof failure === 'object' && failure !== null && 'msg' in failure && typeof failure.msg === 'string') {
    return failure.msg;
  }
  return HOME_ERROR_MESSAGE;
}

/** Opens an app route given as 'path?query' (banner links). */
function openLink(link: string) {
  const [path, search = ''] = link.split('?');
  const query = Object.fromEntries(new URLSearchParams(search).entries());
  void openPage(path, query);
}

function GoodsCard({ goods }: { goods: HomeGoods }) {
  const off = goods.discount >= 0 && goods.discount < 100 ? shownDiscount(goods.discount) : 0;
  return (
    <View className="goods-card" onClick={() => void openPage(PRODUCT_PAGE, { id: String(goods.goods_id) })}>
      <View className="goods-card__image-wrap">
        <Image className="goods-card__image" src={imageUrl(goods.goods_img)} mode="aspectFit" lazyLoad />
        {off > 0 && <Text className="goods-card__badge">-{off}%</Text>}
      </View>
      <Text className="goods-card__name">{goods.goods_name}</Text>
      <View className="goods-card__prices">
        <Text className="goods-card__price">{formatPrice(goods.final_price)}</Text>
        {off > 0 && <Text className="goods-card__was">{formatPrice(goods.shop_price)}</Text>}
      </View>
    </View>
  );
}

function HomeContent({ page }: { page: HomePage }) {
  const isEmpty = page.banners.length === 0 && page.categories.length === 0 && page.sections.length === 0;
  if (isEmpty) {
    return (
      <View className="home__state">
        <Text className="home__state-title">Nothing here yet</Text>
        <Text className="home__state-text">{HOME_EMPTY_MESSAGE}</Text>
      </View>
    );
  }
  return (
    <View>
      {page.banners.length > 0 && (
        <Swiper className="home__banners" indicatorDots={page.banners.length > 1} autoplay circular>
          {page.banners.map((banner) => (
            <SwiperItem key={`${banner.image}-${banner.link}`} onClick={() => banner.link && openLink(banner.link)}>
              <Image className="home__banner-image" src={imageUrl(banner.image)} mode="aspectFill" />
              {banner.title && <Text className="home__banner-title">{banner.title}</Text>}
            </SwiperItem>
          ))}
        </Swiper>
      )}
      {page.categories.length > 0 && (
        <View className="home__section">
          <Text className="home__section-title">Shop by category</Text>
          {chunk(page.categories).map((row) => (
            <View className="home__category-row" key={row.map((category) => category.category_id).join('-')}>
              {row.map((category) => (
                <View
                  className="home__category"
                  key={category.category_id}
                  onClick={() => openCategory(category.category_id, category.category_name)}
                >
                  <Image className="home__category-image" src={imageUrl(category.category_img)} mode="aspectFit" />
                  <Text className="home__category-name">{category.category_name}</Text>
                </View>
              ))}
            </View>
          ))}
        </View>
      )}
      <HomeEntries />
      {page.sections.map((section) => (
        <View className="home__section" key={section.id}>
          <View className="home__section-head">
            <Text className="home__section-title">{section.title}</Text>
            <Text className="home-section-link" onClick={() => openHomeSection(section.id)}>
              See all
            </Text>
          </View>
          <View className="home__goods-grid">
            {section.goods.map((goods) => (
              <GoodsCard goods={goods} key={goods.goods_id} />
            ))}
          </View>
        </View>
      ))}
    </View>
  );
}

export default function Index() {
  useRouteRecord();
  const logo = useAtomValue(logoAtom);
  const [state, setState] = useState<HomeState>({ kind: 'loading' });

  const load = useCallback(() => {
    setState({ kind: 'loading' });
    fetchHomePage().then(
      (page) => setState({ kind: 'ready', page }),
      (failure: unknown) => setState({ kind: 'error', message: failureText(failure) }),
    );
  }, []);

  useEffect(() => {
    load();
  }, [load]);

  return (
    <View className="home">
      <View className="home__header">
        <View className="home__brand">
          {logo ? (
            <Image className="home__logo" src={imageUrl(logo)} mode="aspectFit" />
          ) : (
            <View className="home__logo home__logo--placeholder">
              <Text>L</Text>
            </View>
          )}
          <View className="home__brand-text">
            <Text className="home__title">Lensmate</Text>
            <Text className="home__subtitle">Prescription glasses, made easy</Text>
          </View>
        </View>
        <View className="home__search" onClick={() => void openPage(SEARCH_PAGE)}>
          <View className="home__search-icon" />
          <Text className="home__search-text">Search frames, shapes, colours</Text>
        </View>
      </View>
      {state.kind === 'loading' && (
        <View className="home__state">
          <Text className="home__state-text">Loading the shop…</Text>
        </View>
      )}
      {state.kind === 'error' && (
        <View className="home__state">
          <Text className="home__state-title">{state.message}</Text>
          <View className="home__retry" onClick={load}>
            <Text>Try again</Text>
          </View>
        </View>
      )}
      {state.kind === 'ready' && <HomeContent page={state.page} />}
      <PageTabBar current="home" />
    </View>
  );
}
