import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { CartButton } from '@/features/cart/CartButton';
import { fetchHomeSection } from '@/features/catalog/home-api';
import { GoodsGrid } from '@/features/goods/GoodsCard';
import { StateBox } from '@/features/goods/StateBox';
import { PRODUCT_LIST_PAGE, failureMessage } from '@/features/goods/api';
import { Image, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import type { HomeSection } from '../../../../types/api';
import './detail.css';

export const SECTION_FAILED = 'This collection could not be loaded.';

type SectionState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; section: HomeSection };

export default function HomeSectionDetail() {
  useRouteRecord();
  const { params } = useRouter();
  const id = Number(params.id);
  const [state, setState] = useState<SectionState>({ kind: 'loading' });
  const load = useCallback(() => {
    setState({ kind: 'loading' });
    fetchHomeSection(id).then(
      (section) => {
        setState({ kind: 'ready', section });
        void Taro.setNavigationBarTitle({ title: section.title });
      },
      (failure: unknown) => setState({ kind: 'error', message: failureMessage(failure, SECTION_FAILED) }),
    );
  }, [id]);
  useEffect(() => {
    load();
  }, [load]);

  if (state.kind === 'loading') return <StateBox text="Loading the collection…" />;
  if (state.kind === 'error') return <StateBox title={state.message} action="Try again" onAction={load} />;
  const { section } = state;
  return (
    <View className="home-detail">
      {section.cover && (
        <View className="home-detail__hero">
          <Image className="home-detail__cover" src={imageUrl(section.cover)} mode="aspectFill" />
        </View>
      )}
      <Text className="home-detail__title">{section.title}</Text>
      {section.goods.length === 0 ? (
        <StateBox
          title="Nothing in this collection yet"
          action="All frames"
          onAction={() => void openPage(PRODUCT_LIST_PAGE)}
        />
      ) : (
        <View className="home-detail__list">
          <Text className="home-detail__count">
            {section.goods.length} {section.goods.length === 1 ? 'frame' : 'frames'}
          </Text>
          <GoodsGrid items={section.goods} />
          <Text
            className="home-detail__more"
            onClick={() => void openPage(PRODUCT_LIST_PAGE, { filter_id: String(section.id) })}
          >
            Filter this collection
          </Text>
        </View>
      )}
      <CartButton />
    </View>
  );
}
