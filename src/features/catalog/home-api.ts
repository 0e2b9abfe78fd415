import { get } from '@/core/request';
import type { HomeSection } from '../../../types/api';

export const HOME_SECTION_PAGE = '/pages/index/detail/detail';

export function fetchHomeSection(id: number): Promise<HomeSection> {
  return get('/api/index/shop_mainpage_detail', { id });
}
