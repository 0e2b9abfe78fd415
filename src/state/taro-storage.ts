import Taro from '@tarojs/taro';

/** The synchronous storage shape jotai's atomWithStorage accepts. */
export interface SyncStorage<Value> {
  getItem(key: string, initialValue: Value): Value;
  setItem(key: string, value: Value): void;
  removeItem(key: string): void;
}

/**
 * A jotai storage over Taro's synchronous storage, so persisted atoms have their value on the first render
 * on both weapp and H5. Taro stores structured values itself, so no JSON step is needed; it answers ''
 * for a key that was never written.
 */
export function taroStorage<Value>(): SyncStorage<Value> {
  return {
    getItem(key, initialValue) {
      const stored: unknown = Taro.getStorageSync(key);
      return stored === '' || stored === undefined ? initialValue : (stored as Value);
    },
    setItem(key, value) {
      // Signing out stores null: drop the key instead, so storage holds no stale entry for it.
      if (value === null || value === undefined) Taro.removeStorageSync(key);
      else Taro.setStorageSync(key, value);
    },
    removeItem(key) {
      Taro.removeStorageSync(key);
    },
  };
}
