import { getCurrentInstance } from '@tarojs/taro';
import type { rearmReachBottom as Rearm } from './rearm-reach-bottom';

/** Taro's default reach-bottom distance, the smallest here (some pages set 200). */
const DISTANCE = 50;

/**
 * A scroll event where the user is now, once the new items are laid out, on what Taro listens to: the page's own
 * container (this app's pages scroll inside it) or the window (`usingWindowScroll`). Sent only where the end is now
 * farther than that distance (never in a page with no layout, as in jsdom), so Taro's handler arms it again, as a
 * scroll of the user's own would; it fires there only as the user's own scroll to that spot would have.
 */
export const rearmReachBottom: typeof Rearm = () => {
  requestAnimationFrame(() => {
    const id = getCurrentInstance().page?.path;
    const container = id ? document.getElementById(id) : null;
    if (container && container.scrollHeight - container.scrollTop - container.clientHeight > DISTANCE) {
      container.dispatchEvent(new Event('scroll'));
    }
    if (document.documentElement.scrollHeight - window.scrollY - window.innerHeight > DISTANCE) {
      window.dispatchEvent(new Event('scroll'));
    }
  });
};
