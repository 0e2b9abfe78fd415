import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, see, shows, tap, typeInto } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const groups = [
  { group_id: 1, name: 'Lensmate friends', owner_id: 2, member_count: 3, is_member: true, created_at: 1 },
];
let calls: ReturnType<typeof fakeApi>;
let toast: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  toast = jest.spyOn(Taro, 'showToast');
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/groups': () => ok(groups),
    '/api/social/following': ok({
      list: [{ user_id: 3, nickname: 'Ben', avatar: '', bio: '', is_following: true }],
      total: 1,
      page: 1,
      page_size: 20,
    }),
    '/api/social/create_group': (data: any) => {
      const group = {
        group_id: 2,
        name: data.name,
        owner_id: 2,
        member_count: 1 + data.member_ids.length,
        is_member: true,
        created_at: 2,
      };
      groups.unshift(group);
      return ok(group);
    },
    '/api/social/group': ok({ ...groups[0], members: [] }),
  });
  await mountPages('/pages/group/group');
});

it('lists the groups with their member counts', async () => {
  await see('Lensmate friends');
  expect(shows('3 members')).toBe(true);
});

it('asks for a name, then creates a group with the chosen people', async () => {
  toast.mockClear();
  await tap('Create group');
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Give the group a name' }));
  await typeInto(page(), 'group-name', 'Aviator fans');
  await tap('Ben');
  await tap('Create group');
  for (let i = 0; i < 100 && !calls.some((call) => call.path === '/api/social/create_group'); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(calls.find((call) => call.path === '/api/social/create_group')?.data).toEqual({
    name: 'Aviator fans',
    member_ids: [3],
  });
});
