import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { createAlbum, refusal } from '@/features/social/api';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { Input, Text, Textarea, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import '@/features/social/social.css';
import '@/ui/form/form.css';

const NAME_REQUIRED = 'Give the album a name';

export default function CreateAlbum() {
  useRouteRecord();
  const user = useSignedInUser();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const save = async () => {
    if (name.trim() === '') {
      setProblem(NAME_REQUIRED);
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      const album = await createAlbum({ name: name.trim(), description: description.trim() });
      await Taro.redirectTo({ url: `${SOCIAL_PAGES.addAlbum}?album_id=${album.album_id}` });
    } catch (reason) {
      setProblem(refusal(reason, 'The album could not be created'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="social-page">
      <View className="social-card">
        <Text className="social-label">Name</Text>
        <Input
          className="social-input"
          name="name"
          value={name}
          maxlength={40}
          placeholder="Summer frames"
          onInput={(event) => setName(event.detail.value)}
        />
        <Text className="social-label">Description</Text>
        <Textarea
          className="social-textarea"
          name="description"
          value={description}
          maxlength={300}
          onInput={(event) => setDescription(event.detail.value)}
        />
        {problem ? <Text className="form-failure">{problem}</Text> : null}
      </View>
      <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void save()}>
        <Text>{busy ? 'Creating…' : 'Create and add photos'}</Text>
      </View>
    </View>
  );
}
