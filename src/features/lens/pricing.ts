import type { Goods, Lens, LensCoating, LensColor, LensThickness, LensType } from '../../../types/api';

export interface LensSelection {
  type: LensType;
  lens: Lens | undefined;
  thickness: LensThickness | undefined;
  coatings: LensCoating[];
  color: LensColor | undefined;
  /** The prism charge when the prescription has a prism, else 0. */
  prism: number;
}

export interface PriceLine {
  label: string;
  amount: number;
}

/** The lines of the price as the shopper chose so far; the server prices the cart line the same way. */
export function priceLines(frame: Goods | null, selection: LensSelection): PriceLine[] {
  const lines: PriceLine[] = [];
  if (frame) lines.push({ label: `Frame: ${frame.goods_name}`, amount: frame.final_price });
  lines.push({ label: `Lens type: ${selection.type.name}`, amount: selection.type.price });
  if (selection.lens) lines.push({ label: `Lens: ${selection.lens.name}`, amount: selection.lens.price });
  if (selection.thickness)
    lines.push({ label: `Index: ${selection.thickness.name}`, amount: selection.thickness.price });
  for (const coating of selection.coatings) lines.push({ label: `Coating: ${coating.name}`, amount: coating.price });
  if (selection.color) lines.push({ label: `Lens colour: ${selection.color.name}`, amount: selection.color.price });
  if (selection.prism > 0) lines.push({ label: 'Prism', amount: selection.prism });
  return lines;
}

/** The sum in cents, so that 0.1 + 0.2 stays 0.30. */
export function totalOf(lines: readonly PriceLine[]): number {
  return lines.reduce((cents, line) => cents + Math.round(line.amount * 100), 0) / 100;
}
