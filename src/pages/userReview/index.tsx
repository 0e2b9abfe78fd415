import { useRouteRecord } from '@/core/use-route-record';
import { StateBox } from '@/features/goods/StateBox';
import { PagedFoot } from '@/features/paging/PagedFoot';
import { usePagedList } from '@/features/paging/use-paged-list';
import { ReviewCard } from '@/features/review/ReviewCard';
import { fetchReviews } from '@/features/review/api';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useCallback } from 'react';
import './index.css';

export const REVIEWS_FAILED = 'The reviews could not be loaded.';
export const NO_REVIEWS = 'No reviews yet. Write the first one from a frame you love.';

export default function UserReview() {
  useRouteRecord();
  const load = useCallback((page: number) => fetchReviews({ page }), []);
  const list = usePagedList('reviews', load, { failedText: REVIEWS_FAILED });
  const average = list.latest?.average ?? null;
  useReachBottom(list.loadMore);

  return (
    <View className="reviews-page">
      <View className="reviews-page__hero">
        <Text className="reviews-page__title">What shoppers say</Text>
        {average !== null && (
          <Text className="reviews-page__average">
            ★ {average.toFixed(1)} from {list.total} {list.total === 1 ? 'review' : 'reviews'}
          </Text>
        )}
      </View>
      {list.loading && <StateBox text="Loading reviews…" />}
      {!list.loading && list.items.length === 0 && list.error && (
        <StateBox title={list.error} action="Try again" onAction={list.retry} />
      )}
      {!list.loading && list.items.length === 0 && !list.error && (
        <StateBox title="Nothing here yet" text={NO_REVIEWS} />
      )}
      {list.items.length > 0 && (
        <View className="reviews-page__list">
          {list.items.map((review) => (
            <ReviewCard review={review} withFrame key={review.review_id} />
          ))}
          <PagedFoot list={list} doneText="That is every review" />
        </View>
      )}
      <PageTabBar current="reviews" />
    </View>
  );
}
