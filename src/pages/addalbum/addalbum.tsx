import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { useMediaUpload } from '@/features/article/use-media-upload';
import { addImages, loadAlbums, refusal, uploadSocialImage } from '@/features/social/api';
import { pickImages } from '@/features/social/media';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Image, Input, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { Album } from '../../../types/api';
import '@/features/social/social.css';
import '@/features/article/editor.css';

interface Pending {
  url: string;
  caption: string;
}

const splitTags = (text: string) =>
  text
    .split(/[,，#\s]+/)
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);

/** Uploads photos into one of the signed-in user's albums (query album_id, or chosen here), with captions and tags. */
export default function AddAlbum() {
  useRouteRecord();
  const user = useSignedInUser();
  const wanted = Number(useRouter().params.album_id) || null;
  const [albums, setAlbums] = useState<Album[] | null>(null);
  const [failure, setFailure] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [albumId, setAlbumId] = useState<number | null>(wanted);
  const [pending, setPending] = useState<Pending[]>([]);
  const [tags, setTags] = useState('');
  const [busy, setBusy] = useState(false);
  const media = useMediaUpload((file) => uploadSocialImage(file.path, file.name));

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another token or Try again
  useEffect(() => {
    if (!user) return;
    setFailure('');
    loadAlbums().then(
      (list) => {
        setAlbums(list);
        if (albumId === null && list.length > 0) setAlbumId(list[0].album_id);
      },
      // A failure is not "no album yet": it is said, with a way to try again.
      (reason: unknown) => setFailure(refusal(reason, 'Could not load your albums')),
    );
  }, [user?.token, attempt]);

  if (!user) return null;
  if (failure) {
    return (
      <View className="social-page">
        <StateView state="error" error={failure} onRetry={() => setAttempt((times) => times + 1)} />
      </View>
    );
  }
  if (albums !== null && albums.length === 0) {
    return (
      <View className="social-page">
        <EmptyView
          title="Create an album first"
          action="New album"
          onAction={() => void Taro.redirectTo({ url: SOCIAL_PAGES.createAlbum })}
        />
      </View>
    );
  }

  const choose = async () => {
    const urls = await media.uploadAll(await pickImages(9));
    setPending((list) => [...list, ...urls.map((url) => ({ url, caption: '' }))]);
  };

  const save = async () => {
    if (albumId === null || pending.length === 0) {
      void Taro.showToast({ title: 'Add at least one photo', icon: 'none' });
      return;
    }
    setBusy(true);
    try {
      await addImages({
        album_id: albumId,
        images: pending.map((item) => ({ url: item.url, caption: item.caption, tags: splitTags(tags) })),
      });
      await Taro.redirectTo({ url: `${SOCIAL_PAGES.albumInfo}?id=${albumId}` });
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'The photos could not be saved'), icon: 'none', duration: 2500 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="social-page">
      <View className="social-card">
        <Text className="social-label">Album</Text>
        <View className="social-chips">
          {(albums ?? []).map((album) => (
            <View
              key={album.album_id}
              className={`social-chip ${album.album_id === albumId ? 'social-chip--on' : ''}`}
              onClick={() => setAlbumId(album.album_id)}
            >
              <Text>{album.name}</Text>
            </View>
          ))}
        </View>
        <Text className="social-label">Photos</Text>
        <View className="addarticle__slides">
          {pending.map((item, index) => (
            <View key={item.url} className="addarticle__slide">
              <Image className="addarticle__slide-image" src={imageUrl(item.url)} mode="aspectFill" />
              <View
                className="addarticle__remove"
                onClick={() => setPending((list) => list.filter((_, at) => at !== index))}
              >
                <Text>×</Text>
              </View>
            </View>
          ))}
          <View className="addarticle__slide addarticle__slide--add" onClick={choose}>
            <Text>{media.uploading ? 'Uploading…' : '+ Photos'}</Text>
          </View>
        </View>
        {pending.map((item, index) => (
          <Input
            key={item.url}
            className="social-input"
            style={{ marginTop: '8px' }}
            name={`caption-${index}`}
            value={item.caption}
            maxlength={200}
            placeholder={`Caption of photo ${index + 1}`}
            onInput={(event) =>
              setPending((list) =>
                list.map((entry, at) => (at === index ? { ...entry, caption: event.detail.value } : entry)),
              )
            }
          />
        ))}
        <Text className="social-label">Tags</Text>
        <Input
          className="social-input"
          name="tags"
          value={tags}
          maxlength={200}
          placeholder="Round, Sunglasses"
          onInput={(event) => setTags(event.detail.value)}
        />
      </View>
      <View
        className={`social-button ${busy || media.uploading ? 'social-button--busy' : ''}`}
        onClick={() => !busy && !media.uploading && void save()}
      >
        <Text>{busy ? 'Saving…' : 'Save to album'}</Text>
      </View>
    </View>
  );
}
