import { post } from '@/core/request';
import {
  REVIEW_MAX_LENGTH,
  type Review,
  type ReviewListRequest,
  type ReviewPage,
  type SaveReviewRequest,
} from '../../../types/api';

export type { Review, ReviewPage };

export const REVIEWS_PAGE = '/pages/userReview/index';
export { REVIEW_MAX_LENGTH };

export function fetchReviews(request: ReviewListRequest): Promise<ReviewPage> {
  return post('/api/review/get_reviews', { page_size: 10, ...request });
}

export function saveReview(request: SaveReviewRequest): Promise<Review> {
  return post('/api/review/save_review', request);
}
