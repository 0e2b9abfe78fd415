import { openPage } from '@/core/navigation';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { addCartLine } from '@/features/cart/api';
import { StateBox } from '@/features/goods/StateBox';
import { failureMessage } from '@/features/goods/api';
import { FrameSummary, Steps, useFrame } from '@/features/lens/FrameSummary';
import { ThicknessPreview, thicknessFor } from '@/features/lens/ThicknessPreview';
import {
  fetchCoatings,
  fetchLensColors,
  fetchLensTypes,
  fetchMyPrescriptions,
  fetchPrismPrice,
  fetchThickness,
  hasPrism,
} from '@/features/lens/api';
import { CART_PAGE } from '@/features/lens/flow';
import { priceLines, totalOf } from '@/features/lens/pricing';
import { recommendedIndex, strongestPower, thicknessHint } from '@/features/lens/thickness';
import { lensAtom } from '@/state/lens';
import { appStore } from '@/state/store';
import { formatPrice } from '@/utils/format';
import type { Thickness } from '@/utils/lens-thickness';
import { Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { LensCoating, LensColor, LensThickness, LensType, Prescription } from '../../../../types/api';
import '@/features/lens/lens.css';

export const LENS_OPTIONS_FAILED = 'The lens options could not be loaded.';
export const ADD_TO_CART_FAILED = 'The glasses could not be added to the cart.';
export const ADDED_TO_CART = 'Added to cart';

interface Options {
  type: LensType;
  thickness: LensThickness[];
  coatings: LensCoating[];
  colors: LensColor[];
  prismPrice: number;
  prescription: Prescription | null;
}

type OptionsState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; options: Options };

function storedPrescription(stored: Record<string, unknown> | null, id: number): Prescription | null {
  return stored && stored.prescription_id === id ? (stored as unknown as Prescription) : null;
}

async function loadOptions(lensTypeId: number, prescriptionId: number, stored: Prescription | null): Promise<Options> {
  const [types, thickness, coatings, colors, prism, prescription] = await Promise.all([
    fetchLensTypes(),
    fetchThickness(),
    fetchCoatings(),
    fetchLensColors(),
    fetchPrismPrice(),
    prescriptionId > 0 && !stored
      ? fetchMyPrescriptions().then((list) => list.find((entry) => entry.prescription_id === prescriptionId) ?? null)
      : Promise.resolve(stored),
  ]);
  const type = types.find((entry) => entry.lens_type_id === lensTypeId);
  if (!type) throw new Error('This lens type is no longer offered.');
  return { type, thickness, coatings, colors, prismPrice: prism.price, prescription };
}

function Option({
  active,
  name,
  description,
  price,
  swatch,
  onClick,
  children,
}: {
  active: boolean;
  name: string;
  description?: string;
  price: number;
  swatch?: string;
  onClick(): void;
  children?: ReactNode;
}) {
  return (
    <View className={`lens-option ${active ? 'lens-option--active' : ''}`} onClick={onClick}>
      {swatch && <View className="lens-option__swatch" style={{ background: swatch }} />}
      <View className="lens-option__text">
        <Text className="lens-option__name">{name}</Text>
        {description && <Text className="lens-option__desc">{description}</Text>}
        {children}
      </View>
      <Text className="lens-option__price">{price > 0 ? `+$${formatPrice(price)}` : 'Free'}</Text>
    </View>
  );
}

function Estimate({ thickness }: { thickness: Thickness | null }) {
  return thickness ? <ThicknessPreview thickness={thickness} /> : null;
}

export default function LensPage() {
  useRouteRecord();
  const { params } = useRouter();
  const goodsId = Number(params.goods_id);
  const colorId = Number(params.color_id);
  const lensTypeId = Number(params.lens_type_id);
  const prescriptionId = Number(params.prescription_id ?? 0);
  const frame = useFrame(goodsId);
  const [state, setState] = useState<OptionsState>({ kind: 'loading' });
  const [lensId, setLensId] = useState<number | null>(null);
  const [thicknessId, setThicknessId] = useState<number | null>(null);
  const [coatingIds, setCoatingIds] = useState<number[]>([]);
  const [colorChoice, setColorChoice] = useState<number | null>(null);
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();

  const load = useCallback(() => {
    setState({ kind: 'loading' });
    loadOptions(
      lensTypeId,
      prescriptionId,
      storedPrescription(appStore.get(lensAtom).prescription, prescriptionId),
    ).then(
      (options) => {
        setState({ kind: 'ready', options });
        setLensId(options.type.lenses[0]?.lens_id ?? null);
        setColorChoice(options.colors[0]?.lens_color_id ?? null);
        if (options.type.needs_prescription && options.prescription) {
          const index = recommendedIndex(strongestPower(options.prescription.od, options.prescription.os));
          setThicknessId(options.thickness.find((entry) => entry.index >= index)?.thickness_id ?? null);
        } else if (options.type.needs_prescription) {
          setThicknessId(options.thickness[0]?.thickness_id ?? null);
        }
      },
      (reason: unknown) =>
        setState({
          kind: 'error',
          message: reason instanceof Error ? reason.message : failureMessage(reason, LENS_OPTIONS_FAILED),
        }),
    );
  }, [lensTypeId, prescriptionId]);
  useEffect(() => {
    load();
  }, [load]);

  const selection = useMemo(() => {
    if (state.kind !== 'ready') return null;
    const { options } = state;
    return {
      type: options.type,
      lens: options.type.lenses.find((lens) => lens.lens_id === lensId),
      thickness: options.thickness.find((entry) => entry.thickness_id === thicknessId),
      coatings: options.coatings.filter((coating) => coatingIds.includes(coating.coating_id)),
      color: options.colors.find((color) => color.lens_color_id === colorChoice),
      prism: options.prescription && hasPrism(options.prescription) ? options.prismPrice : 0,
    };
  }, [state, lensId, thicknessId, coatingIds, colorChoice]);

  if (state.kind === 'loading') return <StateBox text="Loading lens options…" />;
  if (state.kind === 'error' || !selection) {
    return (
      <StateBox
        title={state.kind === 'error' ? state.message : LENS_OPTIONS_FAILED}
        action="Try again"
        onAction={load}
      />
    );
  }
  const { options } = state;
  const lines = priceLines(frame, selection);
  const rx = options.prescription;
  const thicknessOf = (index: number) => (rx ? thicknessFor(index, rx, frame) : null);
  const total = totalOf(lines);

  const addToCart = () => {
    if (sending) return;
    setFailure('');
    setSending(true);
    addCartLine({
      goods_id: goodsId,
      color_id: colorId,
      quantity: 1,
      lens: {
        lens_type_id: lensTypeId,
        lens_id: lensId,
        thickness_id: thicknessId,
        coating_ids: coatingIds,
        lens_color_id: colorChoice,
      },
      prescription_id: prescriptionId > 0 ? prescriptionId : null,
    }).then(
      () => {
        setSending(false);
        void Taro.showToast({ title: ADDED_TO_CART, icon: 'success', duration: 1500 });
        void openPage(CART_PAGE);
      },
      (reason: unknown) => {
        setSending(false);
        setFailure(failureMessage(reason, ADD_TO_CART_FAILED));
      },
    );
  };

  return (
    <View className="lens-page">
      <Steps current={3} />
      <FrameSummary goods={frame} colorId={colorId} />
      {options.type.lenses.length > 0 && (
        <View className="lens-section">
          <Text className="lens-section__title">{options.type.name} lens</Text>
          {options.type.lenses.map((lens) => (
            <Option
              key={lens.lens_id}
              active={lens.lens_id === lensId}
              name={lens.name}
              description={lens.description}
              price={lens.price}
              onClick={() => setLensId(lens.lens_id)}
            />
          ))}
        </View>
      )}
      {options.type.needs_prescription && options.thickness.length > 0 && (
        <View className="lens-section">
          <Text className="lens-section__title">Lens index (thickness)</Text>
          {options.prescription && (
            <Text className="lens-section__hint">
              {thicknessHint(options.prescription.od, options.prescription.os, selection.thickness)}
            </Text>
          )}
          {options.thickness.map((entry) => (
            <Option
              key={entry.thickness_id}
              active={entry.thickness_id === thicknessId}
              name={entry.name}
              description={entry.description}
              price={entry.price}
              onClick={() => setThicknessId(entry.thickness_id)}
            >
              <Estimate thickness={thicknessOf(entry.index)} />
            </Option>
          ))}
        </View>
      )}
      {options.coatings.length > 0 && (
        <View className="lens-section">
          <Text className="lens-section__title">Coatings</Text>
          {options.coatings.map((coating) => (
            <Option
              key={coating.coating_id}
              active={coatingIds.includes(coating.coating_id)}
              name={coating.name}
              description={coating.description}
              price={coating.price}
              onClick={() =>
                setCoatingIds(
                  coatingIds.includes(coating.coating_id)
                    ? coatingIds.filter((id) => id !== coating.coating_id)
                    : [...coatingIds, coating.coating_id],
                )
              }
            />
          ))}
        </View>
      )}
      {options.colors.length > 0 && (
        <View className="lens-section">
          <Text className="lens-section__title">Lens colour</Text>
          {options.colors.map((color) => (
            <Option
              key={color.lens_color_id}
              active={color.lens_color_id === colorChoice}
              name={color.name}
              price={color.price}
              swatch={color.color_value}
              onClick={() => setColorChoice(color.lens_color_id)}
            />
          ))}
        </View>
      )}
      <View className="lens-section">
        <Text className="lens-section__title">Your glasses</Text>
        <View className="lens-breakdown">
          {lines.map((line) => (
            <View className="lens-breakdown__line" key={line.label}>
              <Text className="lens-breakdown__label">{line.label}</Text>
              <Text className="lens-breakdown__amount">${formatPrice(line.amount)}</Text>
            </View>
          ))}
        </View>
      </View>
      {failure && <Text className="lens-error">{failure}</Text>}
      <View className="lens-bar">
        <View className="lens-bar__total">
          <Text className="lens-bar__label">Total</Text>
          <Text className="lens-bar__value" data-testid="lens-total">
            ${formatPrice(total)}
          </Text>
        </View>
        <Text className={`lens-bar__button ${sending ? 'lens-bar__button--disabled' : ''}`} onClick={addToCart}>
          {sending ? 'Adding…' : 'Add to cart'}
        </Text>
      </View>
    </View>
  );
}
