import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Page } from '../../../types/api';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, waitForPath } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const ben = { user_id: 3, nickname: 'Ben', avatar: '', bio: 'Aviators only' };
const followersOfBen = new Set<number>();
let calls: ReturnType<typeof fakeApi>;

const card = (user: typeof ben, following: boolean) => ({ ...user, is_following: following });
const benProfile = () => ({
  ...card(ben, followersOfBen.has(ada.user_id)),
  is_admin: false,
  is_me: false,
  followers: followersOfBen.size,
  following: 0,
  articles: 1,
  albums: 0,
});
const list = <T,>(items: T[]) => ok<Page<T>>({ list: items, total: items.length, page: 1, page_size: 20 });

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/profile': (data: any) =>
      data.user_id === 3 ? ok(benProfile()) : refused(404, 'user_id: no such user'),
    '/api/social/follow': () => {
      followersOfBen.add(ada.user_id);
      return ok({ user_id: 3, is_following: true, followers: followersOfBen.size });
    },
    '/api/social/unfollow': () => {
      followersOfBen.delete(ada.user_id);
      return ok({ user_id: 3, is_following: false, followers: followersOfBen.size });
    },
    '/api/social/followers': () =>
      list(
        followersOfBen.has(ada.user_id)
          ? [{ user_id: 2, nickname: 'Ada', avatar: '', bio: '', is_following: false }]
          : [],
      ),
    '/api/social/following': () => list([]),
    '/api/social/trends': list([
      {
        article_id: 7,
        title: 'Aviators, a history',
        cover: '',
        imgsUrl: [],
        category_id: null,
        author: { user_id: 3, nickname: 'Ben', avatar: '' },
        created_at: Date.UTC(2026, 1, 3),
        updated_at: 0,
      },
    ]),
    '/api/social/users': (data: any) =>
      list(
        String(data.keyword ?? '')
          .toLowerCase()
          .startsWith('be') || !data.keyword
          ? [card(ben, followersOfBen.has(2))]
          : [],
      ),
  });
  await mountPages('/pages/user/user?id=3');
});

it("shows another user's profile with counts and a Follow button", async () => {
  await see('Aviators only');
  expect(shows('Ben')).toBe(true);
  expect(shows('Follow')).toBe(true);
  expect(page().querySelector('.user-page__count-value')?.textContent).toBe('0');
});

it('follows: the button and the follower count change, and the followers list shows the user', async () => {
  await tap('Follow');
  await buttonSays('Following');
  expect(page().querySelector('.user-page__count-value')?.textContent).toBe('1');
  expect(calls.find((call) => call.path === '/api/social/follow')?.data).toEqual({ user_id: 3 });
  await tap('Followers');
  await waitForPath('/pages/user/allUser/allUser');
  await see('1 person');
  expect(shows('Ada')).toBe(true);
  Taro.navigateBack();
  await waitForPath('/pages/user/user');
});

it('unfollows: the count drops and the followers list is empty', async () => {
  page();
  const button = page().querySelector('.social-follow') as HTMLElement;
  expect(button.textContent).toBe('Following');
  button.click();
  await buttonSays('Follow');
  expect(page().querySelector('.user-page__count-value')?.textContent).toBe('0');
  await tap('Followers');
  await waitForPath('/pages/user/allUser/allUser');
  await see('No followers yet');
  Taro.navigateBack();
  await waitForPath('/pages/user/user');
});

it("lists the user's articles on trends", async () => {
  await tap('Articles');
  await waitForPath('/pages/user/trends/trends');
  await see('Aviators, a history');
  expect(shows('Ben · 2026-02-03')).toBe(true);
  Taro.navigateBack();
  await waitForPath('/pages/user/user');
});

it('finds people by nickname on addfriend and follows from the list', async () => {
  Taro.navigateTo({ url: '/pages/addfriend/addfriend' });
  await waitForPath('/pages/addfriend/addfriend');
  await see('Aviators only');
  const follow = page().querySelector('.social-follow') as HTMLElement;
  follow.click();
  await buttonSays('Following');
  expect(followersOfBen.has(2)).toBe(true);
});

async function buttonSays(text: string): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    if (page().querySelector('.social-follow')?.textContent === text) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the follow button never said ${text}`);
}
