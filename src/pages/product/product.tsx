import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { CartButton } from '@/features/cart/CartButton';
import { CS_PAGES } from '@/features/cs/routes';
import { StateBox } from '@/features/goods/StateBox';
import { PRODUCT_PAGE, failureMessage, fetchGoods } from '@/features/goods/api';
import { startAddToCart } from '@/features/lens/flow';
import { ProductReviews } from '@/features/review/ProductReviews';
import { TRYON_PAGE } from '@/features/tryon/routes';
import { Carousel } from '@/ui/shop/Carousel';
import { formatPrice, shownDiscount } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import type { Goods, GoodsColor } from '../../../types/api';
import './product.css';

export const PRODUCT_LOAD_FAILED = 'This frame could not be loaded.';
export const OUT_OF_STOCK_TEXT = 'Out of stock in this colour';

type ProductState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; goods: Goods };

function colorImages(goods: Goods, color: GoodsColor | undefined): string[] {
  const images = color?.goods_color_img ?? [];
  return images.length > 0 ? images : [goods.goods_img];
}

function Measurements({ goods }: { goods: Goods }) {
  const sizes = [
    { label: 'Lens width', value: goods.lens_width },
    { label: 'Bridge', value: goods.bridge_width },
    { label: 'Temple', value: goods.temple_length },
  ].filter((size) => size.value > 0);
  if (sizes.length === 0) return null;
  return (
    <View className="product__card">
      <Text className="product__card-title">Frame size</Text>
      <View className="product__sizes">
        {sizes.map((size) => (
          <View className="product__size" key={size.label}>
            <Text className="product__size-value">{size.value} mm</Text>
            <Text className="product__size-label">{size.label}</Text>
          </View>
        ))}
      </View>
    </View>
  );
}

export default function Product() {
  useRouteRecord();
  const { params } = useRouter();
  const goodsId = Number(params.id);
  const [state, setState] = useState<ProductState>({ kind: 'loading' });
  const [colorId, setColorId] = useState<number>(Number(params.color_id) || 0);

  const load = useCallback(() => {
    if (!Number.isInteger(goodsId) || goodsId <= 0) {
      setState({ kind: 'error', message: 'No frame was chosen.' });
      return;
    }
    setState({ kind: 'loading' });
    fetchGoods(goodsId).then(
      (goods) => {
        setState({ kind: 'ready', goods });
        setColorId((chosen) =>
          goods.color_arr.some((color) => color.color_id === chosen) ? chosen : (goods.color_arr[0]?.color_id ?? 0),
        );
      },
      (failure: unknown) => setState({ kind: 'error', message: failureMessage(failure, PRODUCT_LOAD_FAILED) }),
    );
  }, [goodsId]);

  useEffect(() => {
    load();
  }, [load]);

  if (state.kind === 'loading') return <StateBox text="Loading the frame…" />;
  if (state.kind === 'error') return <StateBox title={state.message} action="Try again" onAction={load} />;

  const { goods } = state;
  const color = goods.color_arr.find((entry) => entry.color_id === colorId);
  const off = goods.discount < 100 ? shownDiscount(goods.discount) : 0;
  const soldOut = color?.stock === 0;
  const images = colorImages(goods, color);

  return (
    <View className="product">
      <Carousel
        className="product__gallery"
        dots
        key={colorId}
        slides={images.map((image) => ({
          key: image,
          content: <Image className="product__image" src={imageUrl(image)} mode="aspectFit" />,
        }))}
      />
      <View className="product__card">
        <Text className="product__name">{goods.goods_name}</Text>
        <View className="product__prices">
          <Text className="product__price">${formatPrice(goods.final_price)}</Text>
          {off > 0 && <Text className="product__was">${formatPrice(goods.shop_price)}</Text>}
          {off > 0 && <Text className="product__off">{off}% off</Text>}
        </View>
        {goods.filters.length > 0 && (
          <View className="product__tags">
            {goods.filters.map((filter) => (
              <Text className="product__tag" key={filter.filter_id}>
                {filter.filter_name}
              </Text>
            ))}
          </View>
        )}
      </View>
      <View className="product__card">
        <Text className="product__card-title">Colour: {color?.color_name ?? '—'}</Text>
        <View className="product__colors">
          {goods.color_arr.map((entry) => (
            <View
              key={entry.color_id}
              className={`product__color ${entry.color_id === colorId ? 'product__color--active' : ''}`}
              onClick={() => setColorId(entry.color_id)}
              aria-label={entry.color_name}
            >
              <View className="product__swatch" style={{ background: entry.color_value }} />
            </View>
          ))}
        </View>
        {soldOut && <Text className="product__stock">{OUT_OF_STOCK_TEXT}</Text>}
      </View>
      <Measurements goods={goods} />
      {goods.goods_desc && (
        <View className="product__card">
          <Text className="product__card-title">About this frame</Text>
          <Text className="product__desc">{goods.goods_desc}</Text>
        </View>
      )}
      {color && (
        <View
          className="product__card product__support"
          onClick={() => void openPage(TRYON_PAGE, { id: String(goods.goods_id), color_id: String(color.color_id) })}
        >
          <Text className="product__card-title">Try on</Text>
          <Text className="product__desc">See this frame in {color.color_name} on your face ›</Text>
        </View>
      )}
      <View
        className="product__card product__support"
        onClick={() => void openPage(CS_PAGES.customer, { goods_id: String(goods.goods_id) })}
      >
        <Text className="product__card-title">Questions about this frame?</Text>
        <Text className="product__desc">Chat with us ›</Text>
      </View>
      <View className="product__card">
        <Text className="product__card-title">Reviews</Text>
        <ProductReviews goodsId={goods.goods_id} framePage={PRODUCT_PAGE} />
      </View>
      <View className="product__bar">
        <CartButton inline />
        <View className="product__bar-price">
          <Text className="product__bar-label">Frame</Text>
          <Text className="product__bar-value">${formatPrice(goods.final_price)}</Text>
        </View>
        <Text
          className={`product__add ${soldOut || !color ? 'product__add--disabled' : ''}`}
          onClick={() => {
            if (!soldOut && color) void startAddToCart(goods.goods_id, color.color_id, PRODUCT_PAGE);
          }}
        >
          Add to cart
        </Text>
      </View>
    </View>
  );
}
