import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadCollectedAlbums } from '@/features/social/api';
import { AlbumGrid, PageLoadState } from '@/features/social/components';
import { useLoad } from '@/features/social/use-load';
import { EmptyView } from '@/ui/shop/StateView';
import { View } from '@tarojs/components';
import '@/features/social/social.css';

export default function CollectionAlbums() {
  useRouteRecord();
  const user = useSignedInUser();
  const { state, data, error, reload } = useLoad(() => loadCollectedAlbums(), [user?.token], Boolean(user));
  if (!user) return null;
  if (state !== 'ready' || !data) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      {data.list.length === 0 ? (
        <EmptyView title="No collected albums yet" hint="Tap ☆ Collect on an album you like." />
      ) : (
        <AlbumGrid albums={data.list} />
      )}
    </View>
  );
}
