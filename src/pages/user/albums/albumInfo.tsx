import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { collect, like, loadAlbum, refusal, uncollect, unlike } from '@/features/social/api';
import { ImageGrid, PageLoadState } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { currentToken, currentUser } from '@/state/customer';
import { EmptyView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import type { SocialImage } from '../../../../types/api';
import '@/features/social/social.css';
import './albums.css';

/** One album: its photos, collect the album, and for a chosen photo: like, collect, tags. */
export default function AlbumInfo() {
  useRouteRecord();
  const albumId = Number(useRouter().params.id);
  const { state, data: album, error, setData, reload } = useLoad(() => loadAlbum(albumId), [albumId]);
  const [openImage, setOpenImage] = useState<SocialImage | null>(null);

  if (state !== 'ready' || !album) return <PageLoadState state={state} error={error} onRetry={reload} />;
  const mine = album.owner.user_id === currentUser()?.user_id;

  const guard = () => {
    if (currentToken()) return true;
    void openPage('/pages/login/login');
    return false;
  };
  const fail = (reason: unknown) => void Taro.showToast({ title: refusal(reason, 'Could not save'), icon: 'none' });
  const replaceImage = (image: SocialImage) => {
    setOpenImage(image);
    setData({ ...album, images: album.images.map((item) => (item.image_id === image.image_id ? image : item)) });
  };

  const toggleAlbum = async () => {
    if (!guard()) return;
    try {
      const result = album.collected
        ? await uncollect('album', album.album_id)
        : await collect('album', album.album_id);
      setData({ ...album, collected: result.collected });
    } catch (reason) {
      fail(reason);
    }
  };
  const toggleLike = async (image: SocialImage) => {
    if (!guard()) return;
    try {
      const result = image.liked ? await unlike('image', image.image_id) : await like('image', image.image_id);
      replaceImage({ ...image, liked: result.liked, likes: result.likes });
    } catch (reason) {
      fail(reason);
    }
  };
  const toggleCollect = async (image: SocialImage) => {
    if (!guard()) return;
    try {
      const result = image.collected
        ? await uncollect('image', image.image_id)
        : await collect('image', image.image_id);
      replaceImage({ ...image, collected: result.collected });
    } catch (reason) {
      fail(reason);
    }
  };

  return (
    <View className="social-page">
      <View className="social-card">
        <Text className="social-card__title">{album.name}</Text>
        {album.description ? <Text className="social-muted">{album.description}</Text> : null}
        <View className="album-info__bar">
          <Text
            className="social-muted"
            onClick={() => void openPage(SOCIAL_PAGES.user, { id: String(album.owner.user_id) })}
          >
            by {album.owner.nickname} · {album.image_count} photos
          </Text>
          {mine ? (
            <View
              className="social-chip social-chip--on"
              onClick={() => void openPage(SOCIAL_PAGES.addAlbum, { album_id: String(album.album_id) })}
            >
              <Text>+ Add photos</Text>
            </View>
          ) : (
            <View className={`social-chip ${album.collected ? 'social-chip--on' : ''}`} onClick={toggleAlbum}>
              <Text>{album.collected ? '★ Collected' : '☆ Collect'}</Text>
            </View>
          )}
        </View>
      </View>
      {album.images.length === 0 ? (
        <EmptyView title="No photos in this album yet" />
      ) : (
        <ImageGrid images={album.images} onOpen={setOpenImage} />
      )}
      {openImage && (
        <View className="album-info__viewer" onClick={() => setOpenImage(null)}>
          <Image className="album-info__viewer-image" src={imageUrl(openImage.url)} mode="aspectFit" />
          <View className="album-info__viewer-bar" onClick={(event) => event.stopPropagation()}>
            {openImage.caption ? <Text className="album-info__caption">{openImage.caption}</Text> : null}
            <View className="social-chips">
              {openImage.tags.map((tag) => (
                <View
                  key={tag.tag_id}
                  className="social-chip"
                  onClick={() => void openPage(SOCIAL_PAGES.tagImgList, { id: String(tag.tag_id) })}
                >
                  <Text>#{tag.name}</Text>
                </View>
              ))}
            </View>
            <View className="album-info__actions">
              <Text onClick={() => void toggleLike(openImage)}>
                {openImage.liked ? '♥' : '♡'} {openImage.likes}
              </Text>
              <Text onClick={() => void toggleCollect(openImage)}>
                {openImage.collected ? '★ Collected' : '☆ Collect'}
              </Text>
              {mine && (
                <Text onClick={() => void openPage(SOCIAL_PAGES.addTag, { image_id: String(openImage.image_id) })}>
                  # Tags
                </Text>
              )}
            </View>
          </View>
        </View>
      )}
    </View>
  );
}
