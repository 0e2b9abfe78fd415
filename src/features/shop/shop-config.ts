import { get } from '@/core/request';
import { logoAtom } from '@/state/shop';
import { appStore } from '@/state/store';

export interface ShopConfig {
  shop_name: string;
  shop_logo: string;
  [field: string]: unknown;
}

/** Refreshes the stored shop logo at app start, in the background; the previous logo stays on failure. */
export async function refreshShopLogo(): Promise<void> {
  try {
    const config = await get('/api/config/shop_config', undefined, { loading: false });
    if (typeof config.shop_logo === 'string') appStore.set(logoAtom, config.shop_logo);
  } catch (failure) {
    console.error('Could not load the shop configuration', failure);
  }
}
