import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { loadTagImages } from '@/features/social/api';
import { ImageGrid, PageLoadState } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { useLoad } from '@/features/social/use-load';
import { EmptyView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import '@/features/social/social.css';

/** The photos carrying one tag (query id). */
export default function TagImgList() {
  useRouteRecord();
  const tagId = Number(useRouter().params.id);
  const { state, data, error, reload } = useLoad(
    () =>
      loadTagImages(tagId).then((page) => {
        void Taro.setNavigationBarTitle({ title: `#${page.tag.name}` });
        return page;
      }),
    [tagId],
  );
  if (state !== 'ready' || !data) return <PageLoadState state={state} error={error} onRetry={reload} />;
  return (
    <View className="social-page">
      <View className="social-card">
        <Text className="social-card__title">#{data.tag.name}</Text>
        <Text className="social-muted">{data.total} photos</Text>
      </View>
      {data.list.length === 0 ? (
        <EmptyView title="No photos with this tag yet" />
      ) : (
        <ImageGrid
          images={data.list}
          onOpen={(image) => void openPage(SOCIAL_PAGES.albumInfo, { id: String(image.album_id) })}
        />
      )}
    </View>
  );
}
