import { useOnline } from '@/core/use-network';
import { useEffect } from 'react';
import type { AppOfflineBanner as Banner } from './AppOfflineBanner';
import { OFFLINE_TEXT } from './offline-text';
import './offline.css';

export const AppOfflineBanner: typeof Banner = () => {
  const online = useOnline();
  useEffect(() => {
    if (online) return undefined;
    const banner = document.createElement('div');
    banner.className = 'offline-banner';
    banner.setAttribute('role', 'status');
    banner.textContent = OFFLINE_TEXT;
    document.body.appendChild(banner);
    return () => banner.remove();
  }, [online]);
  return null;
};
