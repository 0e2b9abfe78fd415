import Taro from '@tarojs/taro';

/** One entry of the navigation history: a page path and its query (data travels in the query only). */
export interface RouteEntry {
  path: string;
  query: Record<string, string>;
}

/** Every key the app keeps in Taro storage, with the type of its value. */
export interface StorageSchema {
  /** The shop logo URL, from shop_config's shop_logo. */
  logo: string;
  /** Unread message count shown as a badge. */
  unreadTotal: number;
  /** Set while image publishing runs in the background. */
  imgPublish: boolean;
  /** Navigation history, oldest first, at most 20 entries. */
  routeStack: RouteEntry[];
}

export type StorageKey = keyof StorageSchema;

/** The stored value, or undefined when the key was never written (Taro returns '' for a missing key). */
export function readStorage<K extends StorageKey>(key: K): StorageSchema[K] | undefined {
  const value: unknown = Taro.getStorageSync(key);
  return value === '' || value === null || value === undefined ? undefined : (value as StorageSchema[K]);
}

export function writeStorage<K extends StorageKey>(key: K, value: StorageSchema[K]): void {
  Taro.setStorageSync(key, value);
}

export function removeStorage(key: StorageKey): void {
  Taro.removeStorageSync(key);
}
