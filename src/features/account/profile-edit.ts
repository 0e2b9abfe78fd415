import { updateProfile, uploadSocialImage } from '@/features/social/api';
import { type PickedFile, publishing } from '@/features/social/media';
import { currentUser, signIn } from '@/state/customer';
import type { SocialProfile, UpdateProfileRequest } from '../../../types/api';
import { NICKNAME_TOO_LONG, onlyErrors } from './auth';

/** Editing the signed-in user's profile (POST /api/social/update_profile) on the user-basic page. */

export const NICKNAME_MAX = 40;
export const BIO_MAX = 200;
export const NICKNAME_REQUIRED = 'Please enter a nickname';
export const BIO_TOO_LONG = `Use at most ${BIO_MAX} characters`;
export const PROFILE_SAVED = 'Profile saved';
export const PROFILE_SAVE_FAILED = 'Your profile could not be saved, please try again';
export const AVATAR_SAVED = 'Photo saved';
export const AVATAR_FAILED = 'The photo could not be saved, please try again';

export interface ProfileForm {
  nickname: string;
  bio: string;
}

export type ProfileErrors = Partial<Record<keyof ProfileForm, string>>;

/** The server's rules: a nickname of 1 to 40 characters and a bio of at most 200, both trimmed. */
export function validateProfile(form: ProfileForm): ProfileErrors {
  const nickname = form.nickname.trim();
  return onlyErrors({
    nickname: nickname === '' ? NICKNAME_REQUIRED : nickname.length > NICKNAME_MAX ? NICKNAME_TOO_LONG : '',
    bio: form.bio.trim().length > BIO_MAX ? BIO_TOO_LONG : '',
  });
}

/** Saves profile changes and keeps the stored user's nickname and avatar in step with them. */
export async function saveProfile(changes: UpdateProfileRequest): Promise<SocialProfile> {
  const saved = await updateProfile(changes);
  const stored = currentUser();
  if (stored) signIn({ ...stored, nickname: saved.nickname, avatar: saved.avatar });
  return saved;
}

/** Uploads a chosen photo and makes it the avatar. */
export async function changeAvatar(file: PickedFile): Promise<SocialProfile> {
  const uploaded = await publishing(() => uploadSocialImage(file.path, file.name));
  return saveProfile({ avatar: uploaded.url });
}
