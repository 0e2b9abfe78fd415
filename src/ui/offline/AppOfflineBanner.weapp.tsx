import { useOnline } from '@/core/use-network';
import Taro from '@tarojs/taro';
import { useEffect, useRef } from 'react';
import type { AppOfflineBanner as Banner } from './AppOfflineBanner';
import { OFFLINE_TEXT } from './offline-text';

/** How long the offline toast stays at most; it is hidden as soon as the connection is back. */
const OFFLINE_TOAST_MS = 24 * 60 * 60 * 1000;

export const AppOfflineBanner: typeof Banner = () => {
  const online = useOnline();
  const shown = useRef(false);
  useEffect(() => {
    if (!online) {
      shown.current = true;
      Promise.resolve(Taro.showToast({ title: OFFLINE_TEXT, icon: 'none', duration: OFFLINE_TOAST_MS })).catch(
        () => undefined,
      );
    } else if (shown.current) {
      shown.current = false;
      Promise.resolve(Taro.hideToast()).catch(() => undefined);
    }
  }, [online]);
  return null;
};
