import {
  COMMUNITY_PAGE,
  HOME_ARTICLES_TITLE,
  HOME_COMMUNITY_OPEN,
  HOME_COMMUNITY_TITLE,
} from '@/features/home/HomeSocial';
import { HOME_DATA_ID, PRERENDER_ID } from '@/features/home/prerendered.h5';
import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import { APP_WAIT_MS, currentPageElement, fakeApi, mountApp, waitForPath } from '../setup/mount-app';

/** Home's answer as the server sends it: the shop, and the four latest articles with their authors. */
const author = (user_id: number, nickname: string, avatar = '') => ({ user_id, nickname, avatar });
const article = (id: number, title: string, by: ReturnType<typeof author> | null) => ({
  article_id: id,
  title,
  cover: `/uploads/a${id}.png`,
  imgsUrl: [],
  category_id: null,
  author: by,
  created_at: Date.UTC(2026, 10, 20 + id),
  updated_at: Date.UTC(2026, 10, 20 + id),
});
const ada = author(5, 'Ada', '/uploads/ada.png');
const ben = author(6, 'Ben');
const homeData = {
  banners: [{ image: '/uploads/banner.svg', title: 'Server banner', link: '' }],
  categories: [{ category_id: 1, category_name: 'Optical', category_img: '/uploads/c1.svg' }],
  sections: [],
  articles: [
    article(4, 'Choosing a lens index', ada),
    article(3, 'Frames for round faces', ben),
    article(2, 'Blue light, explained', ada),
    article(1, 'An anonymous note', null),
  ],
};

const tu = new TestUtils();
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.setStorageSync('imgPublish', true);
  calls = fakeApi({
    '/api/config/shop_config': { status: 200, msg: 'ok', data: { shop_name: 'Lensmate', shop_logo: '' } },
    '/api/config/get_colors': { status: 200, msg: 'ok', data: [] },
    '/api/index/shop_mainpage': { status: 200, msg: 'ok', data: homeData },
  });
  // As server/prerender/home.ts writes it: the prerendered first screen and its data beside the app's mount point.
  const data = JSON.stringify(homeData).replace(/</g, '\\u003c');
  await mountApp('/pages/index/index', {
    body:
      `<div id="${PRERENDER_ID}" class="lm-prerender"><div class="home">prerendered</div></div>` +
      `<script type="application/json" id="${HOME_DATA_ID}">${data}</script><div id="app"></div>`,
  });
});

function page() {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

it('starts from the prerendered data without asking for it again, and removes the prerendered screen', async () => {
  page();
  await tu.queries.waitForQueryByText('Server banner', '*', { timeout: APP_WAIT_MS });
  expect(calls.filter((call) => call.path === '/api/index/shop_mainpage')).toHaveLength(0);
  for (let waited = 0; document.getElementById(PRERENDER_ID) && waited < APP_WAIT_MS; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(document.getElementById(PRERENDER_ID)).toBeNull();
  expect(document.getElementById(HOME_DATA_ID)).toBeNull();
});

it('shows the latest articles the server sends, with author and date', async () => {
  const element = page();
  // They come after the first screen (ui/staged-reveal), each part of home in a task of its own.
  await tu.queries.waitForQueryByText(HOME_COMMUNITY_TITLE, '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText(HOME_ARTICLES_TITLE)).not.toBeNull();
  const titles = Array.from(element.querySelectorAll('.home-article__title')).map((node) => node.textContent);
  expect(titles).toEqual([
    'Choosing a lens index',
    'Frames for round faces',
    'Blue light, explained',
    'An anonymous note',
  ]);
  const metas = Array.from(element.querySelectorAll('.home-article__meta')).map((node) => node.textContent);
  expect(metas).toEqual(['Ada · 2026-11-24', 'Ben · 2026-11-23', 'Ada · 2026-11-22', '2026-11-21']);
});

it('shows the community: each author once, in the order of their newest article', () => {
  const element = page();
  expect(tu.queries.queryByText(HOME_COMMUNITY_TITLE)).not.toBeNull();
  const people = Array.from(element.querySelectorAll('.home-person__name')).map((node) => node.textContent);
  expect(people).toEqual(['Ada', 'Ben']);
  // Ben has no avatar: his initial stands in.
  expect(element.querySelector('.home-person__avatar--initial')?.textContent).toBe('B');
});

it('opens an article from its card', async () => {
  tu.fireEvent.click(page().querySelector('.home-article') as Element);
  await waitForPath('/pages/article/article');
  expect(Taro.getCurrentInstance().router?.params.id).toBe('4');
  await Taro.navigateBack();
  await waitForPath('/pages/index/index');
});

it('opens an author profile from the community', async () => {
  tu.fireEvent.click(page().querySelectorAll('.home-person')[1] as Element);
  await waitForPath('/pages/user/user');
  expect(Taro.getCurrentInstance().router?.params.id).toBe('6');
  await Taro.navigateBack();
  await waitForPath('/pages/index/index');
});

it('opens the community page', async () => {
  page();
  tu.fireEvent.click(tu.queries.queryByText(HOME_COMMUNITY_OPEN) as Element);
  await waitForPath(COMMUNITY_PAGE);
});
