import { goBack } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadProfile, refusal, updateProfile } from '@/features/social/api';
import { signIn } from '@/state/customer';
import { FailureLine } from '@/ui/shop/StateView';
import { Input, Text, Textarea, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import '@/features/social/social.css';
import '@/ui/form/form.css';

const NICKNAME_REQUIRED = 'Enter a nickname';

export default function UpdateInfo() {
  useRouteRecord();
  const user = useSignedInUser();
  const [nickname, setNickname] = useState('');
  const [bio, setBio] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [loadFailure, setLoadFailure] = useState('');
  const [attempt, setAttempt] = useState(0);
  /** Fields typed into before the profile arrived: the profile fills only the others. */
  const edited = useRef({ nickname: false, bio: false });

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another token or Try again
  useEffect(() => {
    if (!user) return;
    setLoadFailure('');
    loadProfile().then(
      (profile) => {
        if (!edited.current.nickname) setNickname(profile.nickname);
        if (!edited.current.bio) setBio(profile.bio);
      },
      (reason: unknown) => setLoadFailure(refusal(reason, 'Could not load your profile')),
    );
  }, [user?.token, attempt]);

  if (!user) return null;

  const save = async () => {
    if (nickname.trim() === '') {
      setProblem(NICKNAME_REQUIRED);
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      const saved = await updateProfile({ nickname: nickname.trim(), bio: bio.trim() });
      signIn({ ...user, nickname: saved.nickname });
      void Taro.showToast({ title: 'Saved', icon: 'success' });
      setTimeout(() => void goBack(), 600);
    } catch (reason) {
      setProblem(refusal(reason, 'Could not save'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="social-page">
      {loadFailure && <FailureLine message={loadFailure} onRetry={() => setAttempt((times) => times + 1)} />}
      <View className="social-card">
        <Text className="social-label">Nickname</Text>
        <Input
          className="social-input"
          name="nickname"
          value={nickname}
          maxlength={40}
          onInput={(event) => {
            edited.current.nickname = true;
            setNickname(event.detail.value);
          }}
        />
        <Text className="social-label">Bio</Text>
        <Textarea
          className="social-textarea"
          name="bio"
          value={bio}
          maxlength={200}
          placeholder="A line about you"
          onInput={(event) => {
            edited.current.bio = true;
            setBio(event.detail.value);
          }}
        />
        {problem ? <Text className="form-failure">{problem}</Text> : null}
      </View>
      <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void save()}>
        <Text>{busy ? 'Saving…' : 'Save'}</Text>
      </View>
    </View>
  );
}
