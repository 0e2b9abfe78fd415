import { type Thickness, formatMm, lensThickness } from '@/utils/lens-thickness';
import { Text, View } from '@tarojs/components';
import type { EyeRx, Goods, PupillaryDistance } from '../../../types/api';
import { strongestPower } from './thickness';

/** The drawing's scale: this many millimetres fill its height. */
const DRAWN_MM = 10;

/** The shopper's PD across both eyes (a dual PD is the sum of its halves). */
export function totalPd(pd: PupillaryDistance): number {
  return pd.kind === 'single' ? pd.value : pd.right + pd.left;
}

/**
 * The estimate for one lens index in this frame for this prescription, or null when the frame's size is not
 * known (no lens width) and the estimate would mislead.
 */
export function thicknessFor(
  index: number,
  rx: { od: EyeRx; os: EyeRx; pd: PupillaryDistance },
  frame: Pick<Goods, 'lens_width' | 'bridge_width'> | null,
): Thickness | null {
  if (!frame || frame.lens_width <= 0) return null;
  return lensThickness(
    strongestPower(rx.od, rx.os),
    index,
    { lensWidth: frame.lens_width, bridge: frame.bridge_width },
    totalPd(rx.pd),
  );
}

function percent(mm: number): number {
  return Math.min(100, (mm / DRAWN_MM) * 100);
}

/**
 * The lens seen in cross-section (a minus lens thick at the edges, a plus lens at the centre) with the estimated
 * edge and centre thickness; every index option draws to the same scale, so the thinner one looks thinner.
 */
export function ThicknessPreview({ thickness }: { thickness: Thickness }) {
  const edge = percent(thickness.edge);
  const centre = percent(thickness.centre);
  const shape = `polygon(0% 0%, 50% 0%, 100% 0%, 100% ${edge}%, 50% ${centre}%, 0% ${edge}%)`;
  return (
    <View className="lens-thickness">
      <View className="lens-thickness__frame">
        <View className="lens-thickness__lens" style={{ clipPath: shape, WebkitClipPath: shape }} />
      </View>
      <Text className="lens-thickness__text">
        Edge {formatMm(thickness.edge)} · centre {formatMm(thickness.centre)}
      </Text>
    </View>
  );
}
