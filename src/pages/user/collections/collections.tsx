import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadCollectedAlbums, loadCollectedImages } from '@/features/social/api';
import { LinkRow } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { StateView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import '@/features/social/social.css';

export default function Collections() {
  useRouteRecord();
  const user = useSignedInUser();
  const { data, state, error, reload } = useLoad(
    () =>
      Promise.all([loadCollectedAlbums(), loadCollectedImages()]).then(([albums, images]) => ({
        albums: albums.total,
        images: images.total,
      })),
    [user?.token],
    Boolean(user),
  );
  if (!user) return null;
  return (
    <View className="social-page">
      {state === 'error' && <StateView state="error" error={error} onRetry={reload} />}
      <View className="social-card">
        <LinkRow
          label="Collected albums"
          value={data ? String(data.albums) : ''}
          onClick={() => void openPage(SOCIAL_PAGES.collectionAlbums)}
        />
        <LinkRow
          label="Collected photos"
          value={data ? String(data.images) : ''}
          onClick={() => void openPage(SOCIAL_PAGES.collectionImgs)}
        />
      </View>
    </View>
  );
}
