import { refreshShopLogo } from '@/features/shop/shop-config';
import { announcePendingImageUploads } from '@/state/shop';
import { appStore } from '@/state/store';
import { useLaunch } from '@tarojs/taro';
import { Provider } from 'jotai';
import type { PropsWithChildren } from 'react';
import './app.css';

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    announcePendingImageUploads();
    void refreshShopLogo();
  });
  return <Provider store={appStore}>{children}</Provider>;
}

export default App;
