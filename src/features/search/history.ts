import Taro from '@tarojs/taro';

/** Recent searches live in local storage under this key, newest first. */
export const SEARCH_HISTORY_KEY = 'searchHistory';
export const SEARCH_HISTORY_MAX = 10;
export const SEARCH_LIST_PAGE = '/pages/index/search/searchList';

export function readSearchHistory(): string[] {
  const stored: unknown = Taro.getStorageSync(SEARCH_HISTORY_KEY);
  return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Puts a keyword first (once, compared without case) and keeps the newest 10. */
export function rememberSearch(keyword: string): string[] {
  const trimmed = keyword.trim();
  if (trimmed === '') return readSearchHistory();
  const next = [trimmed, ...readSearchHistory().filter((entry) => entry.toLowerCase() !== trimmed.toLowerCase())].slice(
    0,
    SEARCH_HISTORY_MAX,
  );
  Taro.setStorageSync(SEARCH_HISTORY_KEY, next);
  return next;
}

export function clearSearchHistory(): void {
  Taro.removeStorageSync(SEARCH_HISTORY_KEY);
}
