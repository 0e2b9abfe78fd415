import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Notice, Page } from '../../../types/api';
import { fakeApi, mountPages, ok, see, shows, tap, waitForPath } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const ben = { user_id: 3, nickname: 'Ben', avatar: '' };
const page = <T,>(list: T[]) => ok<Page<T>>({ list, total: list.length, page: 1, page_size: 20 });
const notices: Record<string, Notice[]> = {
  likes: [
    {
      kind: 'likes',
      from: ben,
      target: { kind: 'image', target_id: 1, title: 'Look 1', image: '/uploads/seed/a.svg' },
      content: '',
      created_at: 2,
    },
  ],
  followers: [{ kind: 'followers', from: ben, target: null, content: '', created_at: Date.UTC(2026, 3, 5) }],
  comments: [
    {
      kind: 'comments',
      from: ben,
      target: { kind: 'image', target_id: 1, title: 'Look 1', image: '' },
      content: 'Those suit you!',
      created_at: 3,
    },
    {
      kind: 'comments',
      from: ben,
      target: { kind: 'article', target_id: 4, title: 'Frames 101', image: '' },
      content: 'Great read',
      created_at: 1,
    },
  ],
};

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/notifications': (data: any) => page(notices[data.kind]),
  });
  await mountPages('/pages/message/message2');
});

it('counts likes, new followers and comments', async () => {
  await see('New followers');
  await see('2');
  expect(shows('Likes')).toBe(true);
  expect(shows('Comments')).toBe(true);
});

it('lists who liked what', async () => {
  await tap('Likes');
  await waitForPath('/pages/message/message-agrees');
  await see('Ben liked “Look 1”');
  Taro.navigateBack();
  await waitForPath('/pages/message/message2');
});

it('lists new followers with the date', async () => {
  await tap('New followers');
  await waitForPath('/pages/message/message-followers');
  await see('Ben started following you');
  expect(shows('2026-04-05')).toBe(true);
  Taro.navigateBack();
  await waitForPath('/pages/message/message2');
});

it('lists comments with their text', async () => {
  await tap('Comments');
  await waitForPath('/pages/message/message-comments');
  await see('Those suit you!');
  expect(shows('Ben commented on “Frames 101”')).toBe(true);
});
