import { currentToken } from '@/state/customer';
import { useDidShow } from '@tarojs/taro';
import { useEffect, useRef } from 'react';

/**
 * Loads a signed-in page's data when it mounts and again each time the shopper comes back to it (e.g. from
 * the address list or the shipment page), so what it shows follows changes made elsewhere.
 */
export function usePageLoad(load: () => void): void {
  const firstShowSeen = useRef(false);
  useEffect(() => {
    if (currentToken()) load();
  }, [load]);
  useDidShow(() => {
    if (!firstShowSeen.current) {
      firstShowSeen.current = true;
      return;
    }
    if (currentToken()) load();
  });
}
