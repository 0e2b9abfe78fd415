import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadAlbums } from '@/features/social/api';
import { AlbumGrid, PageLoadState } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { currentToken, currentUser } from '@/state/customer';
import { EmptyView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import '@/features/social/social.css';

/** A user's albums (query id; default the signed-in user, who can create one). */
export default function Albums() {
  useRouteRecord();
  const userId = Number(useRouter().params.id) || undefined;
  const signedIn = currentToken() !== '';
  const mine = userId === undefined || userId === currentUser()?.user_id;
  const { state, data, error, reload } = useLoad(() => loadAlbums(userId), [userId], userId !== undefined || signedIn);
  if (!signedIn && userId === undefined) {
    return (
      <View className="social-page">
        <View className="social-button" onClick={() => void openPage('/pages/login/login')}>
          <Text>Sign in to see your albums</Text>
        </View>
      </View>
    );
  }
  if (state !== 'ready' || !data) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      {mine && (
        <View
          className="social-button"
          style={{ marginBottom: '12px' }}
          onClick={() => void openPage(SOCIAL_PAGES.createAlbum)}
        >
          <Text>+ New album</Text>
        </View>
      )}
      {data.length === 0 ? (
        <EmptyView title="No albums yet" hint={mine ? 'Create one and add your photos.' : undefined} />
      ) : (
        <AlbumGrid albums={data} />
      )}
    </View>
  );
}
