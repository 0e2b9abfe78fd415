import { imageUrl } from '@/core/request';
import { fetchGoods } from '@/features/goods/api';
import { formatPrice } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import type { Goods } from '../../../types/api';
import './lens.css';

/** Loads the frame being fitted with lenses; the lens pages show it on top and price on top of it. */
export function useFrame(goodsId: number): Goods | null {
  const [goods, setGoods] = useState<Goods | null>(null);
  useEffect(() => {
    if (goodsId > 0) fetchGoods(goodsId).then(setGoods, () => setGoods(null));
  }, [goodsId]);
  return goods;
}

export function FrameSummary({ goods, colorId }: { goods: Goods | null; colorId: number }) {
  if (!goods) return null;
  const color = goods.color_arr.find((entry) => entry.color_id === colorId);
  const image = color?.goods_color_img[0] ?? goods.goods_img;
  return (
    <View className="frame-summary">
      <Image className="frame-summary__image" src={imageUrl(image)} mode="aspectFit" />
      <View className="frame-summary__text">
        <Text className="frame-summary__name">{goods.goods_name}</Text>
        <Text className="frame-summary__meta">{color ? color.color_name : ''}</Text>
      </View>
      <Text className="frame-summary__price">${formatPrice(goods.final_price)}</Text>
    </View>
  );
}

export function Steps({ current }: { current: 1 | 2 | 3 }) {
  const steps = ['Lens type', 'Prescription', 'Lenses'];
  return (
    <View className="lens-steps">
      {steps.map((step, index) => (
        <Text
          key={step}
          className={`lens-steps__item ${index + 1 === current ? 'lens-steps__item--active' : ''} ${index + 1 < current ? 'lens-steps__item--done' : ''}`}
        >
          {index + 1}. {step}
        </Text>
      ))}
    </View>
  );
}
