import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { PRODUCT_PAGE } from '@/features/goods/api';
import { Image, Text, View } from '@tarojs/components';
import dayjs from 'dayjs';
import type { Review } from './api';
import './review.css';

export function Stars({ rating, onRate }: { rating: number; onRate?(stars: number): void }) {
  return (
    <View className={`stars ${onRate ? 'stars--input' : ''}`} aria-label={`${rating} of 5 stars`}>
      {[1, 2, 3, 4, 5].map((star) => (
        <Text
          key={star}
          className={`stars__star ${star <= rating ? 'stars__star--on' : ''}`}
          onClick={onRate ? () => onRate(star) : undefined}
        >
          ★
        </Text>
      ))}
    </View>
  );
}

/** One review; `withFrame` adds the frame it is about, linking to it (the Reviews tab lists every frame). */
export function ReviewCard({ review, withFrame }: { review: Review; withFrame: boolean }) {
  return (
    <View className="review-card">
      {withFrame && (
        <View
          className="review-card__frame"
          onClick={() => void openPage(PRODUCT_PAGE, { id: String(review.goods_id) })}
        >
          <Image className="review-card__frame-image" src={imageUrl(review.goods_img)} mode="aspectFit" />
          <Text className="review-card__frame-name">{review.goods_name}</Text>
        </View>
      )}
      <View className="review-card__head">
        <Stars rating={review.rating} />
        <Text className="review-card__author">
          {review.author.nickname || 'Shopper'} · {dayjs(review.created_at).format('YYYY-MM-DD')}
        </Text>
      </View>
      <Text className="review-card__content">{review.content}</Text>
    </View>
  );
}
