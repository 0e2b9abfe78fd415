import { post } from '@/core/request';
import { currentUser, signIn } from '@/state/customer';
import type { User, UserProfile } from '../../../types/api';

export const APP_VERSION = '1.0.5';
export const SETTING_PAGE = '/pages/setting/setting';
export const UPDATE_PASSWORD_PAGE = '/pages/setting/updatePossword/updatePossword';
export const REGISTER_PAGE = '/pages/regist/regist';
export const FIND_PASSWORD_PAGE = '/pages/login/findPassword';

export type Profile = UserProfile & Partial<User>;

/** The signed-in user's profile; the stored user is refreshed with it (e.g. is_admin granted meanwhile). */
export async function loadMyProfile(): Promise<Profile> {
  const profile = await post('/api/user/user_show', {}, { loading: false });
  const stored = currentUser();
  if (stored) signIn({ ...stored, ...profile, token: stored.token });
  return profile;
}

export function memberSince(createdAt: number | undefined): string {
  if (!createdAt) return '';
  const date = new Date(createdAt);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${months[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}
