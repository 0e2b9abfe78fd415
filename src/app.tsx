import { afterStart } from '@/core/after-start';
import { startNetworkWatch } from '@/core/network';
import { loadChatSessionWhenSignedIn } from '@/features/chat/session-loader';
import { refreshShopLogo } from '@/features/shop/shop-config';
import { announcePendingImageUploads } from '@/state/shop';
import { appStore } from '@/state/store';
import { AppOfflineBanner } from '@/ui/offline/AppOfflineBanner';
import { useLaunch } from '@tarojs/taro';
import { Provider } from 'jotai';
import { type PropsWithChildren, useEffect } from 'react';
import './app.css';
// Home's styles and the carousel's are global: the server's prerendered first screen of home
// (server/prerender/home.ts) is styled by the first stylesheet, before any page chunk arrives.
import '@/features/home/home.css';
import '@/ui/shop/carousel.css';

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    startNetworkWatch();
    // Each in a task of its own after the launch's (on H5: the launch is part of the page's first long task).
    afterStart(announcePendingImageUploads);
    afterStart(() => void refreshShopLogo());
  });
  // The app-wide chat connection (badge and notifications on every page), loaded after the first render.
  useEffect(() => {
    loadChatSessionWhenSignedIn();
  }, []);
  // The banner renders nothing here (see AppOfflineBanner): the app's root holds only its pages.
  return (
    <Provider store={appStore}>
      <AppOfflineBanner />
      {children}
    </Provider>
  );
}

export default App;
