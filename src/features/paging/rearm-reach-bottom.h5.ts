import { getCurrentInstance } from '@tarojs/taro';
import type { rearmReachBottom as Rearm } from './rearm-reach-bottom';

/**
 * A scroll event where the user is now, once the new items are laid out, on what Taro listens to: the page's own
 * container (this app's pages scroll inside it) or the window (`usingWindowScroll`). Taro's handler sees the end
 * farther than its distance and arms reach-bottom again, as a scroll of the user's own would; still at the end (a
 * page too short to fill the screen), it has fired already and fires nothing more.
 */
export const rearmReachBottom: typeof Rearm = () => {
  requestAnimationFrame(() => {
    const id = getCurrentInstance().page?.path;
    const container = id ? document.getElementById(id) : null;
    container?.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('scroll'));
  });
};
