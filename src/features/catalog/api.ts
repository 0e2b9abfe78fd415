import { type RequestOptions, get } from '@/core/request';
import type { Category, Color, Filter, FilterType, Page } from '../../../types/api';

export const CATEGORY_PAGE = '/pages/category/category';
export const CATEGORY_LIST_PAGE = '/pages/category/categoryList/categoryList';

export function fetchColors(options: RequestOptions = {}): Promise<Color[]> {
  return get('/api/config/get_colors', undefined, options);
}

export function fetchFilters(): Promise<Filter[]> {
  return get('/api/config/get_filters');
}

export function fetchCategories(page = 1): Promise<Page<Category>> {
  return get('/api/config/get_category_page', { page, page_size: 50 });
}

/** The filter types in the order the spec names them (shop-app.md §1). */
export const FILTER_ORDER: readonly FilterType[] = ['Gender', 'Type', 'Shape', 'Material', 'Tag'];

export interface FilterGroup {
  type: FilterType;
  filters: Filter[];
}

/** Filters grouped by type in the spec's order (Gender, Type, Shape, Material, Tag); empty types are left out. */
export function groupFilters(filters: readonly Filter[]): FilterGroup[] {
  return FILTER_ORDER.map((type) => ({ type, filters: filters.filter((filter) => filter.type === type) })).filter(
    (group) => group.filters.length > 0,
  );
}
