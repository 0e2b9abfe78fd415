import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadTags, refusal, tagImage } from '@/features/social/api';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { currentToken } from '@/state/customer';
import { StateView } from '@/ui/shop/StateView';
import { Input, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { Tag } from '../../../types/api';
import '@/features/social/social.css';

/** Every tag with its photo count; with query image_id, the signed-in owner tags that photo. */
export default function AddTag() {
  useRouteRecord();
  const imageId = Number(useRouter().params.image_id) || null;
  const [tags, setTags] = useState<Tag[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the user taps Try again
  useEffect(() => {
    setFailure('');
    loadTags().then(setTags, (reason: unknown) => setFailure(refusal(reason, 'Could not load the tags')));
  }, [attempt]);

  const toggle = (name: string) =>
    setChosen((list) => (list.includes(name) ? list.filter((item) => item !== name) : [...list, name]));
  const addTyped = () => {
    const name = typed.trim().replace(/^#/, '');
    if (name && !chosen.includes(name)) setChosen([...chosen, name]);
    setTyped('');
  };

  const save = async () => {
    if (!imageId) return;
    if (!currentToken()) return void openPage('/pages/login/login');
    if (chosen.length === 0) {
      void Taro.showToast({ title: 'Choose at least one tag', icon: 'none' });
      return;
    }
    setBusy(true);
    try {
      await tagImage(imageId, chosen);
      void Taro.showToast({ title: 'Tags saved', icon: 'success' });
      setTimeout(() => void Taro.navigateBack(), 600);
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'The tags could not be saved'), icon: 'none', duration: 2500 });
    } finally {
      setBusy(false);
    }
  };

  if (failure) {
    return (
      <View className="social-page">
        <StateView state="error" error={failure} onRetry={() => setAttempt((times) => times + 1)} />
      </View>
    );
  }

  return (
    <View className="social-page">
      {imageId && (
        <View className="social-card">
          <Text className="social-card__title">Tag this photo</Text>
          <View className="social-chips" style={{ marginBottom: '12px' }}>
            {chosen.map((name) => (
              <View key={name} className="social-chip social-chip--on" onClick={() => toggle(name)}>
                <Text>#{name} ×</Text>
              </View>
            ))}
          </View>
          <Input
            className="social-input"
            name="tag"
            value={typed}
            maxlength={30}
            placeholder="New tag, then Enter"
            onInput={(event) => setTyped(event.detail.value)}
            onConfirm={addTyped}
            onBlur={addTyped}
          />
        </View>
      )}
      <View className="social-card">
        <Text className="social-card__title">All tags</Text>
        {tags.length === 0 ? <Text className="social-muted">No tags yet</Text> : null}
        <View className="social-chips">
          {tags.map((tag) => (
            <View
              key={tag.tag_id}
              className={`social-chip ${chosen.includes(tag.name) ? 'social-chip--on' : ''}`}
              onClick={() =>
                imageId ? toggle(tag.name) : void openPage(SOCIAL_PAGES.tagImgList, { id: String(tag.tag_id) })
              }
            >
              <Text>
                #{tag.name} · {tag.image_count}
              </Text>
            </View>
          ))}
        </View>
      </View>
      {imageId && (
        <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void save()}>
          <Text>{busy ? 'Saving…' : 'Save tags'}</Text>
        </View>
      )}
    </View>
  );
}
