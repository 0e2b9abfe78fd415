import {
  AVATAR_FAILED,
  AVATAR_SAVED,
  NICKNAME_REQUIRED,
  PROFILE_SAVED,
  validateProfile,
} from '@/features/account/profile-edit';
import { currentUser, signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, typeInto, typeIntoTextarea } from './harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const social = {
  user_id: 2,
  nickname: 'Ada',
  avatar: '',
  bio: 'Reads in the sun',
  is_following: false,
  is_admin: false,
  is_me: true,
  followers: 0,
  following: 0,
  articles: 0,
  albums: 0,
};
let calls: ReturnType<typeof fakeApi>;
let uploadAnswer: unknown;
let toast: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/user/user_show': ok({ ...ada, bio: 'Reads in the sun', created_at: Date.UTC(2026, 0, 15, 12) }),
    '/api/social/update_profile': (data: unknown) => {
      const changes = data as { nickname?: string; bio?: string; avatar?: string };
      if (changes.nickname === 'Taken Name') return refused(400, 'nickname: is already used by someone else');
      if (changes.bio === 'boom') return refused(500, 'The server is busy, please try again');
      return ok({ ...social, ...changes });
    },
  });
  toast = jest.spyOn(Taro, 'showToast');
  jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
    tempFilePaths: ['blob:me'],
    tempFiles: [{ path: 'blob:me', size: 10, originalFileObj: { name: 'me.png' } }],
    errMsg: 'chooseImage:ok',
  } as never);
  jest
    .spyOn(Taro, 'uploadFile')
    .mockImplementation((() =>
      Promise.resolve({ statusCode: 200, data: JSON.stringify(uploadAnswer), errMsg: 'uploadFile:ok' })) as never);
  await mountPages('/pages/mine/basic/user-basic');
});

const profileCalls = () => calls.filter((call) => call.path === '/api/social/update_profile').map((call) => call.data);
const fieldError = (name: string) =>
  page().querySelector(`[name="${name}"]`)?.closest('.form-field')?.querySelector('.form-field__error')?.textContent;

/** The value of a Taro <Input>/<Textarea>, once its web component has rendered the real field. */
async function fieldValue(selector: string): Promise<string | undefined> {
  for (let i = 0; i < 150; i += 1) {
    const field = page().querySelector<HTMLInputElement | HTMLTextAreaElement>(selector);
    if (field) return field.value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

it('applies the server rules: a nickname of 1 to 40 characters, a bio of at most 200', () => {
  expect(validateProfile({ nickname: '  ', bio: '' })).toEqual({ nickname: NICKNAME_REQUIRED });
  expect(validateProfile({ nickname: 'x'.repeat(41), bio: 'y'.repeat(201) })).toEqual({
    nickname: 'Use at most 40 characters',
    bio: 'Use at most 200 characters',
  });
  expect(validateProfile({ nickname: ' Ada ', bio: 'y'.repeat(200) })).toEqual({});
});

it('fills the form with the profile the server knows', async () => {
  await see('Reads in the sun');
  await see('Save profile');
  expect(await fieldValue('input[name="nickname"]')).toBe('Ada');
  expect(await fieldValue('textarea[name="bio"]')).toBe('Reads in the sun');
  expect(shows('16/200')).toBe(true);
  expect(shows('ada@lensmate.test')).toBe(true);
});

it('asks for a nickname next to its field and sends nothing', async () => {
  await typeInto(page(), 'nickname', '   ');
  await tap('Save profile');
  await see(NICKNAME_REQUIRED);
  expect(fieldError('nickname')).toBe(NICKNAME_REQUIRED);
  expect(profileCalls()).toHaveLength(0);
});

it("shows the server's refusal of a field next to that field", async () => {
  await typeInto(page(), 'nickname', 'Taken Name');
  await tap('Save profile');
  await see('Is already used by someone else');
  expect(fieldError('nickname')).toBe('Is already used by someone else');
});

it('shows a refusal of the whole form under it', async () => {
  await typeInto(page(), 'nickname', 'Ada L.');
  await typeIntoTextarea(page(), 'bio', 'boom');
  await tap('Save profile');
  await see('The server is busy, please try again');
  expect(fieldError('nickname')).toBeUndefined();
});

it('saves the nickname and bio, trimmed, and the app knows the new nickname', async () => {
  await typeInto(page(), 'nickname', '  Ada L.  ');
  await typeIntoTextarea(page(), 'bio', ' Optician in Lyon ');
  await tap('Save profile');
  await see('Optician in Lyon');
  expect(profileCalls().at(-1)).toEqual({ nickname: 'Ada L.', bio: 'Optician in Lyon' });
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: PROFILE_SAVED }));
  expect(currentUser()?.nickname).toBe('Ada L.');
  expect(shows('Ada L.')).toBe(true);
});

it('says so when the photo cannot be uploaded', async () => {
  uploadAnswer = refused(400, 'file: the content is not a .png file');
  await tap('Change photo');
  await see(AVATAR_FAILED);
  expect(profileCalls().some((data) => 'avatar' in (data as object))).toBe(false);
});

it('uploads a new photo and makes it the avatar', async () => {
  uploadAnswer = ok({ url: '/uploads/social/me.png', file_name: 'me.png', kind: 'image' });
  await tap('Change photo');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(profileCalls().at(-1)).toEqual({ avatar: '/uploads/social/me.png' });
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: AVATAR_SAVED }));
  expect(currentUser()?.avatar).toBe('/uploads/social/me.png');
  expect(shows(AVATAR_FAILED)).toBe(false);
  expect(page().querySelector('.user-basic__avatar')?.getAttribute('src')).toContain('/uploads/social/me.png');
});
