import { LOGIN_PAGE } from '@/core/routes';
import { useWaiting } from '@/core/use-network';
import { failureMessage } from '@/features/goods/api';
import { currentToken, rememberTarget } from '@/state/customer';
import { Text, Textarea, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import { ReviewCard, Stars } from './ReviewCard';
import { REVIEW_MAX_LENGTH, type ReviewPage, fetchReviews, saveReview } from './api';
import './review.css';

export const REVIEW_SAVED = 'Thanks for your review';
export const RATING_REQUIRED = 'Choose from 1 to 5 stars';
export const CONTENT_REQUIRED = 'Tell other shoppers what you think';

/** The frame's latest reviews and, for a signed-in shopper, the form to write or change theirs. */
export function ProductReviews({ goodsId, framePage }: { goodsId: number; framePage: string }) {
  const [reviews, setReviews] = useState<ReviewPage | null>(null);
  const [rating, setRating] = useState(0);
  const [content, setContent] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useWaiting();

  const load = useCallback(() => {
    fetchReviews({ goods_id: goodsId, page_size: 3 }).then(setReviews, () => setReviews(null));
  }, [goodsId]);
  useEffect(() => {
    load();
  }, [load]);

  const send = () => {
    if (sending) return;
    if (!currentToken()) {
      rememberTarget(framePage, { id: String(goodsId) });
      void Taro.navigateTo({ url: LOGIN_PAGE });
      return;
    }
    if (rating < 1) return setError(RATING_REQUIRED);
    if (content.trim() === '') return setError(CONTENT_REQUIRED);
    setError('');
    setSending(true);
    saveReview({ goods_id: goodsId, rating, content }).then(
      () => {
        setSending(false);
        setContent('');
        setRating(0);
        void Taro.showToast({ title: REVIEW_SAVED, icon: 'success', duration: 1500 });
        load();
      },
      (reason: unknown) => {
        setSending(false);
        setError(failureMessage(reason, 'The review could not be saved.'));
      },
    );
  };

  return (
    <View className="product-reviews">
      <View className="review-summary">
        <Text className="review-summary__average">
          {reviews && reviews.average !== null
            ? `★ ${reviews.average.toFixed(1)} · ${reviews.total} ${reviews.total === 1 ? 'review' : 'reviews'}`
            : 'No reviews yet'}
        </Text>
      </View>
      {reviews?.list.map((review) => (
        <ReviewCard review={review} withFrame={false} key={review.review_id} />
      ))}
      <View className="review-form">
        <Text className="review-summary__average">Write a review</Text>
        <Stars rating={rating} onRate={setRating} />
        <Textarea
          className="review-form__text"
          name="review"
          value={content}
          maxlength={REVIEW_MAX_LENGTH}
          placeholder="How do they fit and feel?"
          onInput={(event) => setContent(event.detail.value)}
        />
        {error && <Text className="review-form__error">{error}</Text>}
        <View className="review-form__foot">
          <Text className="review-form__count">
            {content.length}/{REVIEW_MAX_LENGTH}
          </Text>
          <Text className="review-form__send" onClick={send}>
            {sending ? 'Sending…' : 'Post review'}
          </Text>
        </View>
      </View>
    </View>
  );
}
