import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { formatPrice, shownDiscount } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import type { GoodsCardColor, GoodsCard as ListedGoods } from '../../../types/api';
import { PRODUCT_PAGE } from './api';
import './goods-card.css';

/** What a tile draws: a listed frame (get_goods_page, search_page) or a whole one (a home section's). */
type Card = Omit<ListedGoods, 'color_arr'> & {
  color_arr: readonly Pick<GoodsCardColor, 'color_id' | 'color_name' | 'color_value'>[];
};

/** One frame in a two-column grid: picture, name, final price, the old price and discount when reduced. */
export function GoodsCard({ goods }: { goods: Card }) {
  const off = goods.discount < 100 ? shownDiscount(goods.discount) : 0;
  return (
    <View
      className="goods-tile"
      data-testid={`goods-${goods.goods_id}`}
      onClick={() => void openPage(PRODUCT_PAGE, { id: String(goods.goods_id) })}
    >
      <View className="goods-tile__image-wrap">
        <Image className="goods-tile__image" src={imageUrl(goods.goods_img)} mode="aspectFit" lazyLoad />
        {off > 0 && <Text className="goods-tile__badge">-{off}%</Text>}
      </View>
      <Text className="goods-tile__name">{goods.goods_name}</Text>
      <View className="goods-tile__prices">
        <Text className="goods-tile__price">${formatPrice(goods.final_price)}</Text>
        {off > 0 && <Text className="goods-tile__was">${formatPrice(goods.shop_price)}</Text>}
      </View>
      {goods.color_arr.length > 0 && (
        <View className="goods-tile__colors">
          {goods.color_arr.map((color) => (
            <View
              className="goods-tile__dot"
              key={color.color_id}
              style={{ background: color.color_value }}
              aria-label={color.color_name}
            />
          ))}
        </View>
      )}
    </View>
  );
}

export function GoodsGrid({ items }: { items: readonly Card[] }) {
  return (
    <View className="goods-grid">
      {items.map((goods) => (
        <GoodsCard goods={goods} key={goods.goods_id} />
      ))}
    </View>
  );
}

/** The foot of a growing list: loading, the end, or a retry after a failure. */
export function ListFoot({
  loadingMore,
  done,
  error,
  onRetry,
  count,
}: {
  loadingMore: boolean;
  done: boolean;
  error: string;
  onRetry(): void;
  count: number;
}) {
  if (error) {
    return (
      <View className="list-foot list-foot--error">
        <Text>{error}</Text>
        <Text className="list-foot__retry" onClick={onRetry}>
          Try again
        </Text>
      </View>
    );
  }
  if (loadingMore) return <Text className="list-foot">Loading more…</Text>;
  if (done && count > 0) return <Text className="list-foot">That is every frame</Text>;
  return null;
}
