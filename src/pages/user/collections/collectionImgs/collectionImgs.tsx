import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadCollectedImages } from '@/features/social/api';
import { ImageGrid, PageLoadState } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { EmptyView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import '@/features/social/social.css';

export default function CollectionImgs() {
  useRouteRecord();
  const user = useSignedInUser();
  const { state, data, error, reload } = useLoad(() => loadCollectedImages(), [user?.token], Boolean(user));
  if (!user) return null;
  if (state !== 'ready' || !data) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      {data.list.length === 0 ? (
        <EmptyView title="No collected photos yet" hint="Open a photo in an album and tap ☆ Collect." />
      ) : (
        <ImageGrid
          images={data.list}
          onOpen={(image) => void openPage(SOCIAL_PAGES.albumInfo, { id: String(image.album_id) })}
        />
      )}
    </View>
  );
}
