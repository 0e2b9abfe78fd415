import { post } from '@/core/request';
import type { Review, ReviewListRequest, ReviewPage, SaveReviewRequest } from '../../../types/api';

export type { Review, ReviewPage };

export const REVIEWS_PAGE = '/pages/userReview/index';
export const REVIEW_MAX_LENGTH = 500;

export function fetchReviews(request: ReviewListRequest): Promise<ReviewPage> {
  return post('/api/review/get_reviews', { page_size: 10, ...request });
}

export function saveReview(request: SaveReviewRequest): Promise<Review> {
  return post('/api/review/save_review', request);
}
