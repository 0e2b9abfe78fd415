import { currentUser, signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Page } from '../../../types/api';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, typeInto, waitForPath } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
let profile = {
  user_id: 2,
  nickname: 'Ada',
  avatar: '',
  bio: '',
  is_following: false,
  is_admin: false,
  is_me: true,
  followers: 1,
  following: 1,
  articles: 0,
  albums: 1,
};
const empty = ok<Page<never>>({ list: [], total: 0, page: 1, page_size: 20 });
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/trends': empty,
    '/api/article/get_article_list': ok({
      list: [
        {
          article_id: 1,
          title: 'Choosing your first frames',
          cover: '',
          imgsUrl: [],
          category_id: null,
          author: null,
          created_at: Date.UTC(2026, 0, 2),
          updated_at: 0,
        },
      ],
      total: 1,
      page: 1,
      page_size: 20,
    }),
    '/api/social/profile': () => ok(profile),
    '/api/social/update_profile': (data: any) => {
      if (data.nickname === '') return refused(400, 'nickname: is required');
      profile = { ...profile, ...data };
      return ok(profile);
    },
    '/api/social/collected_albums': ok({
      list: [
        {
          album_id: 4,
          name: 'Ben’s picks',
          description: '',
          cover: '',
          owner: { user_id: 3, nickname: 'Ben', avatar: '' },
          image_count: 0,
          collected: true,
          created_at: 1,
        },
      ],
      total: 1,
      page: 1,
      page_size: 20,
    }),
    '/api/social/collected_images': empty,
    '/api/social/tags': ok([{ tag_id: 1, name: 'Round', image_count: 3 }]),
  });
  await mountPages('/pages/main/main');
});

it('main shows the latest articles when nobody followed has written, and the ways around', async () => {
  await see('Latest articles');
  expect(shows('Choosing your first frames')).toBe(true);
  for (const entry of ['My profile', 'Find people', 'Tags', 'Publish', 'History']) expect(shows(entry)).toBe(true);
});

it('push offers photos, album and tags, but no article to a shopper', async () => {
  await tap('Publish');
  await waitForPath('/pages/push/push');
  await see('Start a new album');
  expect(shows('Article')).toBe(false);
  await tap('Tags');
  await waitForPath('/pages/addtag/addtag');
  await see('#Round · 3');
  Taro.navigateBack();
  await waitForPath('/pages/push/push');
  Taro.navigateBack();
  await waitForPath('/pages/main/main');
});

it('the own profile leads to collections with their counts', async () => {
  await tap('My profile');
  await waitForPath('/pages/user/user');
  await see('Edit profile');
  await tap('Collections');
  await waitForPath('/pages/user/collections/collections');
  await see('Collected albums');
  await tap('Collected albums');
  await waitForPath('/pages/user/collections/collectionAlbums/collectionAlbums');
  await see('Ben’s picks');
  Taro.navigateBack();
  await waitForPath('/pages/user/collections/collections');
  await tap('Collected photos');
  await waitForPath('/pages/user/collections/collectionImgs/collectionImgs');
  await see('No collected photos yet');
  Taro.navigateBack();
  await waitForPath('/pages/user/collections/collections');
  Taro.navigateBack();
  await waitForPath('/pages/user/user');
});

it('edits the nickname and bio, and refuses an empty nickname', async () => {
  await tap('Edit profile');
  await waitForPath('/pages/user/info/info');
  await tap('Nickname');
  await waitForPath('/pages/user/info/updateInfo/updateInfo');
  await typeInto(page(), 'nickname', ' ');
  await tap('Save');
  await see('Enter a nickname');
  await typeInto(page(), 'nickname', 'Ada L.');
  const bio = page().querySelector('textarea[name="bio"]') as HTMLTextAreaElement;
  bio.value = 'Round frames fan';
  bio.dispatchEvent(new Event('input', { bubbles: true }));
  await tap('Save');
  await waitForPath('/pages/user/info/info');
  await see('Ada L.');
  expect(calls.filter((call) => call.path === '/api/social/update_profile').pop()?.data).toEqual({
    nickname: 'Ada L.',
    bio: 'Round frames fan',
  });
  expect(currentUser()?.nickname).toBe('Ada L.');
});

it('keeps what was typed when the profile arrives after it', async () => {
  const answer = jest.mocked(Taro.request).getMockImplementation()!;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  jest
    .spyOn(Taro, 'request')
    .mockImplementation(((options: Taro.request.Option) =>
      options.url.includes('/api/social/profile') ? held.then(() => answer(options)) : answer(options)) as never);
  try {
    await tap('Nickname');
    await waitForPath('/pages/user/info/updateInfo/updateInfo');
    await typeInto(page(), 'nickname', 'Typed first');
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page().querySelector<HTMLInputElement>('input[name="nickname"]')?.value).toBe('Typed first');
    // The field not typed into is filled from the profile.
    expect(page().querySelector<HTMLTextAreaElement>('textarea[name="bio"]')?.value).toBe('Round frames fan');
  } finally {
    release();
    jest.spyOn(Taro, 'request').mockImplementation(answer as never);
  }
});
