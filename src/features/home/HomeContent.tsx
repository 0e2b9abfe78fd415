import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { HomeEntries, openCategory, openHomeSection } from '@/features/catalog/HomeEntries';
import { Carousel } from '@/ui/shop/Carousel';
import { useStagedReveal } from '@/ui/staged-reveal';
import { chunk, formatPrice, shownDiscount } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import { HomeArticles, HomeCommunity } from './HomeSocial';
import type { HomeBanner, HomeCategory, HomeGoods, HomePage } from './api';

const PRODUCT_PAGE = '/pages/product/product';
export const HOME_EMPTY_MESSAGE = 'New frames are on their way. Check back soon.';
export const HOME_CATEGORIES_TITLE = 'Shop by category';

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

/**
 * The first screen under the header: banners and categories. The server prerenders exactly these elements with
 * these classes (server/prerender/home.ts) so that the app takes the screen over without a shift: change both.
 */
function FirstScreen({ banners, categories }: { banners: HomeBanner[]; categories: HomeCategory[] }) {
  return (
    <View>
      {banners.length > 0 && (
        <Carousel
          className="home__banners"
          dots
          autoplay
          slides={banners.map((banner) => ({
            key: `${banner.image}-${banner.link}`,
            onClick: banner.link ? () => openLink(banner.link) : undefined,
            content: (
              <>
                <Image className="home__banner-image" src={imageUrl(banner.image)} mode="aspectFill" />
                {banner.title && <Text className="home__banner-title">{banner.title}</Text>}
              </>
            ),
          }))}
        />
      )}
      {categories.length > 0 && (
        <View className="home__section">
          <Text className="home__section-title">{HOME_CATEGORIES_TITLE}</Text>
          {chunk(categories).map((row) => (
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
    </View>
  );
}

/**
 * Home under the header: the shop (banners, categories, shortcuts, sections), then articles and the community.
 * Drawn in parts (ui/staged-reveal): the first screen with the page's first render, then the shortcuts, each
 * section, the articles and the community one after the other, each in a task of its own on H5.
 */
export function HomeContent({ page }: { page: HomePage }) {
  const isEmpty =
    page.banners.length === 0 &&
    page.categories.length === 0 &&
    page.sections.length === 0 &&
    page.articles.length === 0;
  // The first screen, the shortcuts, one part per section, the articles, the community.
  const shown = useStagedReveal(isEmpty ? 1 : page.sections.length + 4);
  if (isEmpty) {
    return (
      <View className="home__state">
        <Text className="home__state-title">Nothing here yet</Text>
        <Text className="home__state-text">{HOME_EMPTY_MESSAGE}</Text>
      </View>
    );
  }
  const sectionsShown = Math.max(0, shown - 2);
  return (
    <View>
      <FirstScreen banners={page.banners} categories={page.categories} />
      {shown >= 2 && <HomeEntries />}
      {page.sections.slice(0, sectionsShown).map((section) => (
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
      {shown >= page.sections.length + 3 && <HomeArticles articles={page.articles} />}
      {shown >= page.sections.length + 4 && <HomeCommunity articles={page.articles} />}
    </View>
  );
}
