import { goTo } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { fieldFailure, loginFailureMessage } from '@/features/account/auth';
import { type Profile, loadMyProfile, memberSince } from '@/features/account/profile';
import {
  AVATAR_FAILED,
  AVATAR_SAVED,
  BIO_MAX,
  NICKNAME_MAX,
  PROFILE_SAVED,
  PROFILE_SAVE_FAILED,
  type ProfileForm,
  changeAvatar,
  saveProfile,
  validateProfile,
} from '@/features/account/profile-edit';
import { useFieldForm } from '@/features/account/use-field-form';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { pickImages } from '@/features/social/media';
import { ActionButton, Field, FormFailure } from '@/ui/form/Field';
import { FailureLine } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import '@/ui/form/form.css';
import '@/ui/form/profile.css';
import '@/features/account/profile-edit.css';

/** The profile the server knows, editable: photo, nickname and bio; then the account's facts and the password. */
export default function UserBasic() {
  useRouteRecord();
  const user = useSignedInUser();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loadFailure, setLoadFailure] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [avatarProblem, setAvatarProblem] = useState('');
  const [uploading, setUploading] = useState(false);
  const { form, setForm, errors, failure, busy, change, submit } = useFieldForm<ProfileForm>({ nickname: '', bio: '' });

  const token = user?.token;
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another user or Try again
  useEffect(() => {
    if (!token) return;
    setLoadFailure('');
    loadMyProfile().then(
      (loaded) => {
        setProfile(loaded);
        setForm({ nickname: loaded.nickname, bio: loaded.bio });
      },
      (reason: unknown) => setLoadFailure(loginFailureMessage(reason, 'Could not load your profile')),
    );
  }, [token, attempt]);

  if (!user) return null;
  const shown = profile ?? user;
  const name = shown.nickname || user.email;

  const save = () =>
    submit(
      validateProfile(form),
      async () => {
        const saved = await saveProfile({ nickname: form.nickname.trim(), bio: form.bio.trim() });
        setProfile((current) => current && { ...current, ...saved });
        setForm({ nickname: saved.nickname, bio: saved.bio });
        void Taro.showToast({ title: PROFILE_SAVED, icon: 'success', duration: 1500 });
      },
      PROFILE_SAVE_FAILED,
      { nickname: 'nickname', bio: 'bio' },
    );

  const choosePhoto = async () => {
    const [file] = await pickImages(1);
    if (!file) return;
    setAvatarProblem('');
    setUploading(true);
    try {
      const saved = await changeAvatar(file);
      setProfile((current) => current && { ...current, avatar: saved.avatar });
      void Taro.showToast({ title: AVATAR_SAVED, icon: 'success', duration: 1500 });
    } catch (reason) {
      setAvatarProblem(fieldFailure(reason, AVATAR_FAILED).message);
    } finally {
      setUploading(false);
    }
  };

  const rows: [string, string][] = [
    ['Email', user.email],
    ['Account', shown.is_admin ? 'Administrator' : 'Shopper'],
    ['Member since', memberSince(profile?.created_at) || '—'],
  ];

  return (
    <View className="user-basic">
      <View className="user-basic__head">
        <View className="profile-edit__avatar" onClick={() => !uploading && void choosePhoto()}>
          {shown.avatar ? (
            <Image className="user-basic__avatar" src={imageUrl(shown.avatar)} mode="aspectFill" />
          ) : (
            <View className="user-basic__avatar user-basic__avatar--initial">
              <Text>{name.slice(0, 1).toUpperCase()}</Text>
            </View>
          )}
          <Text className="profile-edit__avatar-action">{uploading ? 'Uploading…' : 'Change photo'}</Text>
        </View>
        {avatarProblem && <Text className="profile-edit__avatar-error">{avatarProblem}</Text>}
        <Text className="user-basic__name">{name}</Text>
        {profile?.bio ? <Text className="user-basic__bio">{profile.bio}</Text> : null}
      </View>
      {loadFailure && <FailureLine message={loadFailure} onRetry={() => setAttempt((times) => times + 1)} />}
      {profile && (
        <View className="form-card">
          <Field
            label="Nickname"
            name="nickname"
            value={form.nickname}
            maxlength={NICKNAME_MAX}
            placeholder="How others see you"
            error={errors.nickname}
            onChange={change('nickname')}
          />
          <Field
            label="Bio"
            name="bio"
            multiline
            value={form.bio}
            maxlength={BIO_MAX}
            placeholder="A line about you"
            hint={`${form.bio.trim().length}/${BIO_MAX}`}
            error={errors.bio}
            onChange={change('bio')}
          />
          <FormFailure message={failure} />
          <ActionButton label="Save profile" name="save-profile" busy={busy} onClick={() => void save()} />
        </View>
      )}
      <View className="user-basic__card">
        {rows.map(([label, value]) => (
          <View key={label} className="user-basic__row">
            <Text className="user-basic__label">{label}</Text>
            <Text className="user-basic__value">{value}</Text>
          </View>
        ))}
      </View>
      <View className="user-basic__card">
        <View className="user-basic__row user-basic__row--link" onClick={() => void goTo('changePassword')}>
          <Text className="user-basic__label">Change password</Text>
          <View className="user-basic__chevron" />
        </View>
      </View>
    </View>
  );
}
