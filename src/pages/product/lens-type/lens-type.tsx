import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { StateBox } from '@/features/goods/StateBox';
import { failureMessage } from '@/features/goods/api';
import { FrameSummary, Steps, useFrame } from '@/features/lens/FrameSummary';
import { fetchLensTypes } from '@/features/lens/api';
import { LENS_PAGE, PRESCRIPTION_PAGE } from '@/features/lens/flow';
import { formatPrice } from '@/utils/format';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import type { LensType } from '../../../../types/api';
import '@/features/lens/lens.css';

export const LENS_TYPES_FAILED = 'The lens types could not be loaded.';

type TypesState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; types: LensType[] };

export default function LensTypePage() {
  useRouteRecord();
  const { params } = useRouter();
  const goodsId = Number(params.goods_id);
  const colorId = Number(params.color_id);
  const frame = useFrame(goodsId);
  const [state, setState] = useState<TypesState>({ kind: 'loading' });

  const load = useCallback(() => {
    setState({ kind: 'loading' });
    fetchLensTypes().then(
      (types) => setState({ kind: 'ready', types }),
      (failure: unknown) => setState({ kind: 'error', message: failureMessage(failure, LENS_TYPES_FAILED) }),
    );
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const choose = (type: LensType) => {
    const query = { goods_id: String(goodsId), color_id: String(colorId), lens_type_id: String(type.lens_type_id) };
    void openPage(type.needs_prescription ? PRESCRIPTION_PAGE : LENS_PAGE, query);
  };

  return (
    <View className="lens-page">
      <Steps current={1} />
      <FrameSummary goods={frame} colorId={colorId} />
      {state.kind === 'loading' && <StateBox text="Loading lens types…" />}
      {state.kind === 'error' && <StateBox title={state.message} action="Try again" onAction={load} />}
      {state.kind === 'ready' && (
        <View className="lens-section">
          <Text className="lens-section__title">What will you use them for?</Text>
          {state.types.map((type) => (
            <View className="lens-option" key={type.lens_type_id} onClick={() => choose(type)}>
              <View className="lens-option__text">
                <Text className="lens-option__name">{type.name}</Text>
                <Text className="lens-option__desc">{type.description}</Text>
              </View>
              <Text className="lens-option__price">{type.price > 0 ? `+$${formatPrice(type.price)}` : 'Included'}</Text>
            </View>
          ))}
        </View>
      )}
    </View>
  );
}
