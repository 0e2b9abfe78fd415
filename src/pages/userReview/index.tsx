import { useRouteRecord } from '@/core/use-route-record';
import { StateBox } from '@/features/goods/StateBox';
import { failureMessage } from '@/features/goods/api';
import { ReviewCard } from '@/features/review/ReviewCard';
import { type Review, fetchReviews } from '@/features/review/api';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { Text, View } from '@tarojs/components';
import { useReachBottom } from '@tarojs/taro';
import { useCallback, useEffect, useRef, useState } from 'react';
import './index.css';

export const REVIEWS_FAILED = 'The reviews could not be loaded.';
export const NO_REVIEWS = 'No reviews yet. Write the first one from a frame you love.';

interface ReviewsState {
  list: Review[];
  total: number;
  average: number | null;
  page: number;
}

export default function UserReview() {
  useRouteRecord();
  const [state, setState] = useState<ReviewsState | null>(null);
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const busy = useRef(false);

  const load = useCallback((page: number) => {
    busy.current = true;
    setError('');
    if (page > 1) setLoadingMore(true);
    fetchReviews({ page }).then(
      (answer) => {
        busy.current = false;
        setLoadingMore(false);
        setState((previous) => ({
          list: page === 1 || !previous ? answer.list : [...previous.list, ...answer.list],
          total: answer.total,
          average: answer.average,
          page,
        }));
      },
      (failure: unknown) => {
        busy.current = false;
        setLoadingMore(false);
        setError(failureMessage(failure, REVIEWS_FAILED));
      },
    );
  }, []);

  useEffect(() => {
    load(1);
  }, [load]);

  useReachBottom(() => {
    if (state && !busy.current && state.list.length < state.total) load(state.page + 1);
  });

  return (
    <View className="reviews-page">
      <View className="reviews-page__hero">
        <Text className="reviews-page__title">What shoppers say</Text>
        {state && state.average !== null && (
          <Text className="reviews-page__average">
            ★ {state.average.toFixed(1)} from {state.total} {state.total === 1 ? 'review' : 'reviews'}
          </Text>
        )}
      </View>
      {!state && !error && <StateBox text="Loading reviews…" />}
      {!state && error && <StateBox title={error} action="Try again" onAction={() => load(1)} />}
      {state && state.list.length === 0 && <StateBox title="Nothing here yet" text={NO_REVIEWS} />}
      {state && state.list.length > 0 && (
        <View className="reviews-page__list">
          {state.list.map((review) => (
            <ReviewCard review={review} withFrame key={review.review_id} />
          ))}
          {loadingMore && <Text className="reviews-page__foot">Loading more…</Text>}
          {error && <Text className="reviews-page__foot reviews-page__foot--error">{error}</Text>}
          {!loadingMore && state.list.length >= state.total && (
            <Text className="reviews-page__foot">That is every review</Text>
          )}
        </View>
      )}
      <PageTabBar current="reviews" />
    </View>
  );
}
