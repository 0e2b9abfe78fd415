import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadProfile, refusal, updateProfile, uploadSocialImage } from '@/features/social/api';
import { Avatar, PageLoadState } from '@/features/social/components';
import { pickImages, publishing } from '@/features/social/media';
import { useLoad } from '@/features/social/use-load';
import { signIn } from '@/state/customer';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import '@/features/social/social.css';
import '../info.css';

export default function UpdateImg() {
  useRouteRecord();
  const user = useSignedInUser();
  const { state, data: profile, error, setData, reload } = useLoad(() => loadProfile(), [user?.token], Boolean(user));
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  if (state !== 'ready' || !profile) return <PageLoadState state={state} error={error} onRetry={reload} />;

  const choose = async () => {
    const [file] = await pickImages(1);
    if (!file) return;
    setBusy(true);
    try {
      const uploaded = await publishing(() => uploadSocialImage(file.path, file.name));
      const saved = await updateProfile({ avatar: uploaded.url });
      setData(saved);
      signIn({ ...user, avatar: saved.avatar });
      void Taro.showToast({ title: 'Photo saved', icon: 'success' });
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'The photo could not be saved'), icon: 'none', duration: 2500 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="social-page">
      <View className="social-card">
        <View className="update-img__preview">
          <Avatar url={profile.avatar} name={profile.nickname} size="large" />
        </View>
        <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void choose()}>
          <Text>{busy ? 'Uploading…' : 'Choose a photo'}</Text>
        </View>
      </View>
    </View>
  );
}
